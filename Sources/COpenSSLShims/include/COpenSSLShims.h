#ifndef C_OPENSSL_SHIMS_H
#define C_OPENSSL_SHIMS_H

#include <stddef.h>

/* What the package takes from OpenSSL's libcrypto: offline checks of TLS client credentials, so a worker
 * can refuse a wrong password or a broken file at start instead of on its first TLS handshake, and SHA-256.
 * Only plain C types cross this boundary: no OpenSSL pointer leaves these functions, and nothing decrypted
 * is written anywhere. */

enum qw_credential_check {
    QW_CREDENTIAL_OK = 0,
    /* The file could not be opened or read. */
    QW_CREDENTIAL_UNREADABLE = 1,
    /* The file is not in the expected format (not PKCS#12, no PEM certificate or key in it). */
    QW_CREDENTIAL_MALFORMED = 2,
    /* The password or passphrase does not open the file. */
    QW_CREDENTIAL_WRONG_PASSWORD = 3,
    /* The bundle holds no certificate or no private key. */
    QW_CREDENTIAL_INCOMPLETE = 4,
    /* The private key does not belong to the certificate. */
    QW_CREDENTIAL_KEY_MISMATCH = 5,
};

/* Opens a PKCS#12 bundle with `password` (NULL: none) and checks it holds a certificate and its key. */
int qw_check_pkcs12(const char *path, const char *password);

/* Reads a PEM certificate and a PEM private key (encrypted with `passphrase`, or NULL) and checks that
 * the key belongs to the certificate. `failed_file` is set to 0 (certificate) or 1 (key). */
int qw_check_pem(const char *certificate_path, const char *key_path, const char *passphrase, int *failed_file);

/* The SHA-256 digest of the `length` bytes at `data` (NULL when `length` is 0) into the 32 bytes at `digest`. */
void qw_sha256(const unsigned char *data, size_t length, unsigned char *digest);

/* A SHA-256 over bytes that arrive in pieces (a stored result, written part by part). `qw_sha256_begin` returns
 * a context (NULL when out of memory) that `qw_sha256_update` feeds and `qw_sha256_end` finishes into the 32
 * bytes at `digest` and frees; `qw_sha256_discard` frees one that is not finished. */
void *qw_sha256_begin(void);
void qw_sha256_update(void *context, const unsigned char *data, size_t length);
void qw_sha256_end(void *context, unsigned char *digest);
void qw_sha256_discard(void *context);

/* HMAC-SHA256 (RFC 2104) of the `length` bytes at `data` under the `key_length` bytes at `key` into the 32
 * bytes at `digest`: AWS Signature Version 4 derives its signing key and signs with it. Returns 1, or 0 when
 * libcrypto failed (the digest is then zeroed). */
int qw_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                   unsigned char *digest);

#endif
