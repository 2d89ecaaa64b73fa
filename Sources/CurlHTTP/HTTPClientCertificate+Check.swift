internal import COpenSSLShims

extension HTTPClientCertificate {
    /// Opens the certificate and key with their password, offline, and checks that the key belongs to the
    /// certificate: a worker calls this at start (``HTTPClient/init(configuration:logger:)`` does for its
    /// rules) so a wrong password or a broken file is a `credential` error naming the file, not a TLS
    /// failure on the first request. Nothing decrypted is kept or written anywhere; libcurl reads the files
    /// itself for each connection.
    package func check() throws(HTTPError) {
        switch self {
        case .pkcs12(let path, let password):
            let result = password.map { qw_check_pkcs12(path, $0) } ?? qw_check_pkcs12(path, nil)
            try Self.report(result, kind: "PKCS#12 bundle", path: path, secret: "password")
        case .pem(let certificatePath, let keyPath, let passphrase):
            var failedFile: Int32 = 0
            let result = passphrase.map { qw_check_pem(certificatePath, keyPath, $0, &failedFile) }
                ?? qw_check_pem(certificatePath, keyPath, nil, &failedFile)
            if failedFile == 0 {
                try Self.report(result, kind: "client certificate", path: certificatePath, secret: "passphrase")
            } else {
                try Self.report(result, kind: "client key", path: keyPath, secret: "passphrase")
            }
        }
    }

    /// Turns the C check's result into an error that names the file and what to fix (never the secret).
    private static func report(_ result: Int32, kind: String, path: String, secret: String) throws(HTTPError) {
        let problem: String
        switch UInt32(bitPattern: result) {
        case QW_CREDENTIAL_OK.rawValue: return
        case QW_CREDENTIAL_UNREADABLE.rawValue: problem = "can't be read"
        case QW_CREDENTIAL_MALFORMED.rawValue: problem = "is not a valid \(kind == "PKCS#12 bundle" ? "PKCS#12 file" : "PEM file")"
        case QW_CREDENTIAL_WRONG_PASSWORD.rawValue: problem = "can't be opened with the configured \(secret) (wrong or missing \(secret))"
        case QW_CREDENTIAL_INCOMPLETE.rawValue: problem = "holds no certificate or no private key"
        case QW_CREDENTIAL_KEY_MISMATCH.rawValue: problem = "holds a private key that does not belong to the certificate"
        default: problem = "could not be checked (result \(result))"
        }
        throw HTTPError(code: .credential, message: "the \(kind) '\(path)' \(problem)")
    }
}
