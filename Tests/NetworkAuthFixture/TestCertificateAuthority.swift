import Foundation

/// A throw-away PKI made with openssl (Resources/make-pki.sh): a private CA, a server certificate for
/// 127.0.0.1 and localhost, a client certificate as PEM with an encrypted key and as a password-protected
/// PKCS#12, an unrelated CA, and libcurl public-key pins. Files only: the caller's fixture owns the folder.
package struct TestCertificateAuthority: Sendable {
    package let directory: String
    package var caCertificate: String { "\(directory)/ca.pem" }
    /// A CA that signed nothing the servers use.
    package var unrelatedCA: String { "\(directory)/other-ca.pem" }
    package var serverCertificate: String { "\(directory)/server.pem" }
    package var serverKey: String { "\(directory)/server.key" }
    package var clientCertificate: String { "\(directory)/client.pem" }
    /// The client's private key, PEM, encrypted with ``clientKeyPassphrase``.
    package var clientKey: String { "\(directory)/client-encrypted.key" }
    package let clientKeyPassphrase = "pem-key-pass"
    /// Certificate, key and CA in one PKCS#12, encrypted with ``pkcs12Password``.
    package var clientPKCS12: String { "\(directory)/client.p12" }
    package let pkcs12Password = "p12-pass"
    /// The subject the servers echo for the client certificate.
    package let clientSubject = "CN=network-auth-client"
    /// `sha256//BASE64` of the server's public key: what `CURLOPT_PINNEDPUBLICKEY` takes.
    package let serverPin: String
    /// A well-formed pin of a key the server does not have.
    package let unrelatedPin: String

    static func make(in directory: String) async throws -> TestCertificateAuthority {
        let openssl = try NetworkAuthTools.require("openssl")
        let pkiDirectory = "\(directory)/pki"
        try FileManager.default.createDirectory(atPath: pkiDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let template = TestCertificateAuthority(directory: pkiDirectory, serverPin: "", unrelatedPin: "")
        // The script finds openssl on PATH; make sure the one found here is.
        let path = URL(fileURLWithPath: openssl).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        try await NetworkAuthTools.run(
            ["/bin/sh", "\(NetworkAuthTools.resources)/make-pki.sh", pkiDirectory, template.clientKeyPassphrase, template.pkcs12Password],
            environment: ["PATH": path]
        )
        return TestCertificateAuthority(
            directory: pkiDirectory,
            serverPin: try String(contentsOfFile: "\(pkiDirectory)/server.pin", encoding: .utf8),
            unrelatedPin: try String(contentsOfFile: "\(pkiDirectory)/other.pin", encoding: .utf8)
        )
    }
}
