import CurlHTTP
import Testing

/// TLS against Debian's nginx with a PKI made at test time: peer verification is on by default, a CA
/// applies only to the URLs its rule matches, and client certificates work as PEM and as PKCS#12.
@Suite("TLS with nginx", .enabled(if: Tools.available("nginx", "openssl"), "nginx and openssl are needed (scripts/setup-deps installs them)"))
struct TLSTests {
    @Test("HTTPS succeeds with the test CA configured for the origin, by IP and by name")
    func customCAForOrigin() async throws {
        try await NginxServer.with { nginx in
            let rules = [
                HTTPCredentialRule(match: .origin(nginx.httpsURL), caBundlePath: nginx.pki.caCertificate),
                HTTPCredentialRule(match: .prefix("https://localhost:\(nginx.httpsPort)/"), caBundlePath: nginx.pki.caCertificate),
            ]
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: rules)) { client in
                let byAddress = try await client.execute(HTTPRequest(url: nginx.httpsURL + "/layers"))
                #expect(byAddress.status == 200)
                #expect(byAddress.bodyString.hasPrefix("tls "))
                #expect(byAddress.bodyString.hasSuffix("/layers\n"))
                let byName = try await client.execute(HTTPRequest(url: "https://localhost:\(nginx.httpsPort)/by-name"))
                #expect(byName.status == 200)
            }
        }
    }

    @Test("Without a matching CA rule the server is not trusted: a tls error")
    func peerVerificationIsOn() async throws {
        try await NginxServer.with { nginx in
            let otherOrigin = "https://127.0.0.1:\(nginx.mtlsPort)"
            let cases: [(String, [HTTPCredentialRule])] = [
                ("no rule", []),
                ("a rule for another port", [HTTPCredentialRule(match: .origin(otherOrigin), caBundlePath: nginx.pki.caCertificate)]),
                ("a rule for another host name", [HTTPCredentialRule(match: .origin("https://localhost:\(nginx.httpsPort)"), caBundlePath: nginx.pki.caCertificate)]),
                ("a rule for another path", [HTTPCredentialRule(match: .prefix(nginx.httpsURL + "/other/"), caBundlePath: nginx.pki.caCertificate)]),
                ("an unrelated CA", [HTTPCredentialRule(match: .origin(nginx.httpsURL), caBundlePath: nginx.pki.unrelatedCA)]),
            ]
            for (name, rules) in cases {
                try await TestSupport.withClient(HTTPClientConfiguration(credentials: rules)) { client in
                    let error = await #expect(throws: HTTPError.self, "\(name)") {
                        try await client.execute(HTTPRequest(url: nginx.httpsURL + "/layers"))
                    }
                    #expect(error?.code == .tls, "\(name): \(String(describing: error))")
                    #expect(error?.isRetryable == false)
                }
            }
        }
    }

    @Test("A server that requires a client certificate: refused without, accepted with PEM and PKCS#12")
    func clientCertificates() async throws {
        try await NginxServer.with { nginx in
            let pki = nginx.pki
            let origin = HTTPCredentialRule.Match.origin(nginx.mtlsURL)
            let url = nginx.mtlsURL + "/whoami"

            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, caBundlePath: pki.caCertificate)])) { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 400)  // nginx: "No required SSL certificate was sent"
            }

            let pem = HTTPClientCertificate.pem(certificatePath: pki.clientCertificate, keyPath: pki.clientKey, passphrase: pki.clientKeyPassphrase)
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, caBundlePath: pki.caCertificate, clientCertificate: pem)])) { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 200)
                #expect(response.bodyString == "client CN=curlhttp-test-client\n")
            }

            let p12 = HTTPClientCertificate.pkcs12(path: pki.clientPKCS12, password: pki.pkcs12Password)
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, caBundlePath: pki.caCertificate, clientCertificate: p12)])) { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 200)
                #expect(response.bodyString == "client CN=curlhttp-test-client\n")
            }

            // A wrong password is found when the client is made, before any handshake.
            let wrongPassword = HTTPClientCertificate.pkcs12(path: pki.clientPKCS12, password: "not the password")
            let error = #expect(throws: HTTPError.self) {
                _ = try HTTPClient(
                    configuration: HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, caBundlePath: pki.caCertificate, clientCertificate: wrongPassword)]),
                    logger: TestSupport.logger
                )
            }
            #expect(error?.code == .credential)
            #expect(error?.message.contains(pki.clientPKCS12) == true)
            #expect(error?.message.contains("not the password") == false)
        }
    }
}
