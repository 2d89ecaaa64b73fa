#include "COpenSSLShims.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <string.h>

/* A passphrase callback that hands over `userdata` (the caller's passphrase, or NULL: fail instead of
 * prompting on a terminal). */
static int passphrase_callback(char *buffer, int size, int rwflag, void *userdata) {
    (void)rwflag;
    if (userdata == NULL) return -1;
    size_t length = strlen((const char *)userdata);
    if (length > (size_t)size) return -1;
    memcpy(buffer, userdata, length);
    return (int)length;
}

int qw_check_pkcs12(const char *path, const char *password) {
    BIO *bio = BIO_new_file(path, "rb");
    if (bio == NULL) { ERR_clear_error(); return QW_CREDENTIAL_UNREADABLE; }
    PKCS12 *bundle = d2i_PKCS12_bio(bio, NULL);
    BIO_free(bio);
    if (bundle == NULL) { ERR_clear_error(); return QW_CREDENTIAL_MALFORMED; }
    int result = QW_CREDENTIAL_OK;
    const char *pass = password != NULL ? password : "";
    if (PKCS12_mac_present(bundle) && !PKCS12_verify_mac(bundle, pass, -1)) {
        result = QW_CREDENTIAL_WRONG_PASSWORD;
    } else {
        EVP_PKEY *key = NULL;
        X509 *certificate = NULL;
        if (!PKCS12_parse(bundle, pass, &key, &certificate, NULL)) {
            result = QW_CREDENTIAL_WRONG_PASSWORD;
        } else if (key == NULL || certificate == NULL) {
            result = QW_CREDENTIAL_INCOMPLETE;
        } else if (X509_check_private_key(certificate, key) != 1) {
            result = QW_CREDENTIAL_KEY_MISMATCH;
        }
        EVP_PKEY_free(key);
        X509_free(certificate);
    }
    PKCS12_free(bundle);
    ERR_clear_error();
    return result;
}

int qw_check_pem(const char *certificate_path, const char *key_path, const char *passphrase, int *failed_file) {
    *failed_file = 0;
    BIO *bio = BIO_new_file(certificate_path, "r");
    if (bio == NULL) { ERR_clear_error(); return QW_CREDENTIAL_UNREADABLE; }
    X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (certificate == NULL) { ERR_clear_error(); return QW_CREDENTIAL_MALFORMED; }

    *failed_file = 1;
    bio = BIO_new_file(key_path, "r");
    if (bio == NULL) { X509_free(certificate); ERR_clear_error(); return QW_CREDENTIAL_UNREADABLE; }
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, passphrase_callback, (void *)passphrase);
    BIO_free(bio);
    int result = QW_CREDENTIAL_OK;
    if (key == NULL) {
        unsigned long error = ERR_peek_last_error();
        int reason = ERR_GET_REASON(error);
        /* A key that decrypts to garbage, or a missing passphrase, is a password problem; no PEM block at
         * all is a format problem. */
        result = (reason == PEM_R_NO_START_LINE) ? QW_CREDENTIAL_MALFORMED : QW_CREDENTIAL_WRONG_PASSWORD;
    } else if (X509_check_private_key(certificate, key) != 1) {
        result = QW_CREDENTIAL_KEY_MISMATCH;
    }
    EVP_PKEY_free(key);
    X509_free(certificate);
    ERR_clear_error();
    return result;
}

void qw_sha256(const unsigned char *data, size_t length, unsigned char *digest) {
    static const unsigned char empty = 0;
    SHA256(length > 0 ? data : &empty, length, digest);
}

void *qw_sha256_begin(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return context;
}

void qw_sha256_update(void *context, const unsigned char *data, size_t length) {
    if (context != NULL && length > 0) EVP_DigestUpdate((EVP_MD_CTX *)context, data, length);
}

void qw_sha256_end(void *context, unsigned char *digest) {
    unsigned int written = 0;
    if (context == NULL) return;
    EVP_DigestFinal_ex((EVP_MD_CTX *)context, digest, &written);
    EVP_MD_CTX_free((EVP_MD_CTX *)context);
}

void qw_sha256_discard(void *context) {
    if (context != NULL) EVP_MD_CTX_free((EVP_MD_CTX *)context);
}

int qw_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data, size_t length,
                   unsigned char *digest) {
    static const unsigned char empty = 0;
    unsigned int written = 0;
    if (HMAC(EVP_sha256(), key_length > 0 ? key : &empty, (int)key_length, length > 0 ? data : &empty, length,
             digest, &written) == NULL || written != 32) {
        memset(digest, 0, 32);
        ERR_clear_error();
        return 0;
    }
    return 1;
}
