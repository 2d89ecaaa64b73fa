import CurlHTTP
import NetworkAuthFixture
import Testing

/// Client certificates and server trust against nginx with a private CA: PKCS#12 and PEM client
/// certificates, a wrong password found offline, trust by CA file and by public-key pin.
@Suite("Network authentication: certificates", .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
struct CertificateAuthTests {
    @Test("A client certificate as PKCS#12 and as PEM opens the server that requires one; without, refused")
    func clientCertificates() async throws {
        try await NetworkAuthSupport.withUpstream { upstream in
            try await NginxAuthServer.with(upstream: upstream) { nginx in
                let pki = nginx.certificates
                let certificates: [(String, HTTPClientCertificate)] = [
                    ("p12", .pkcs12(path: pki.clientPKCS12, password: pki.pkcs12Password)),
                    ("pem", .pem(certificatePath: pki.clientCertificate, keyPath: pki.clientKey, passphrase: pki.clientKeyPassphrase)),
                ]
                try await NetworkAuthSupport.withClient { client in
                    for (name, certificate) in certificates {
                        try certificate.check()
                        let rule = HTTPCredentialRule(match: .origin(nginx.mtlsOrigin), caBundlePath: pki.caCertificate, clientCertificate: certificate)
                        let whoami = try await client.execute(NetworkAuthSupport.request(nginx.mtlsWhoAmIURL, rule))
                        #expect(whoami.status == 200, "\(name)")
                        #expect(whoami.bodyString == "client \(pki.clientSubject)\n", "\(name)")
                        let proxied = try await client.execute(NetworkAuthSupport.request(nginx.mtlsOrigin + "/upstream/info", rule))
                        #expect(proxied.bodyString == NetworkAuthSupport.upstreamAnswer("/upstream/info", via: nginx.mtlsOrigin), "\(name)")
                    }
                    // Trusted server, no certificate: nginx refuses with 400.
                    let trustOnly = HTTPCredentialRule(match: .origin(nginx.mtlsOrigin), caBundlePath: pki.caCertificate)
                    let refused = try await client.execute(NetworkAuthSupport.request(nginx.mtlsWhoAmIURL, trustOnly))
                    #expect(refused.status == 400)
                }
            }
        }
    }

    @Test("A wrong PKCS#12 password or PEM passphrase: a credential error naming the file, offline and at client start")
    func wrongPasswords() async throws {
        try await NginxAuthServer.with { nginx in
            let pki = nginx.certificates
            let cases: [(HTTPClientCertificate, String)] = [
                (.pkcs12(path: pki.clientPKCS12, password: "wrong-p12-marker"), pki.clientPKCS12),
                (.pkcs12(path: pki.clientPKCS12, password: nil), pki.clientPKCS12),
                (.pem(certificatePath: pki.clientCertificate, keyPath: pki.clientKey, passphrase: "wrong-pem-marker"), pki.clientKey),
                (.pem(certificatePath: pki.clientCertificate, keyPath: pki.clientKey, passphrase: nil), pki.clientKey),
                // A certificate whose key is another's: the CA's certificate with the client's key.
                (.pem(certificatePath: pki.caCertificate, keyPath: pki.clientKey, passphrase: pki.clientKeyPassphrase), pki.clientKey),
                // Not a PKCS#12 at all.
                (.pkcs12(path: pki.caCertificate, password: "x"), pki.caCertificate),
            ]
            for (certificate, file) in cases {
                let error = #expect(throws: HTTPError.self, "\(file)") { try certificate.check() }
                #expect(error?.code == .credential)
                #expect(error?.message.contains(file) == true, "\(String(describing: error))")
                #expect(error?.message.contains("marker") == false)
                let atStart = #expect(throws: HTTPError.self) {
                    _ = try HTTPClient(
                        configuration: HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: .origin(nginx.mtlsOrigin), clientCertificate: certificate)]),
                        logger: NetworkAuthSupport.logger
                    )
                }
                #expect(atStart?.code == .credential)
            }
        }
    }

    @Test("Server trust by the private CA's file: trusted by IP and by name; untrusted without it")
    func trustByCAFile() async throws {
        try await NginxAuthServer.with { nginx in
            let pki = nginx.certificates
            try await NetworkAuthSupport.withClient { client in
                let byCA = HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: pki.caCertificate)
                let response = try await client.execute(NetworkAuthSupport.request(nginx.tlsFileURL, byCA))
                #expect(response.status == 200)
                #expect(response.bodyString == NginxAuthServer.tlsBody)
                let byName = HTTPCredentialRule(match: .origin("https://localhost:\(nginx.httpsPort)"), caBundlePath: pki.caCertificate)
                let status = try await client.execute(NetworkAuthSupport.request("https://localhost:\(nginx.httpsPort)/files/tls.txt", byName)).status
                #expect(status == 200)
                for rule in [nil, HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: pki.unrelatedCA)] {
                    let request = rule.map { NetworkAuthSupport.request(nginx.tlsFileURL, $0) } ?? HTTPRequest(url: nginx.tlsFileURL)
                    let error = await #expect(throws: HTTPError.self) { try await client.execute(request) }
                    #expect(error?.code == .tls)
                }
            }
        }
    }

    @Test("Server trust by public-key pin: the right pin opens, a wrong pin is a tls error, and the pin stays on its origin")
    func trustByPin() async throws {
        try await NginxAuthServer.with { nginx in
            let pki = nginx.certificates
            #expect(pki.serverPin.hasPrefix("sha256//"))
            #expect(pki.serverPin != pki.unrelatedPin)
            // The pin replaces no CA check: the private CA is trusted too (a self-signed server would need
            // its own certificate as the CA file).
            let pinned = HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: pki.caCertificate, pinnedPublicKey: pki.serverPin)
            let wrong = HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: pki.caCertificate, pinnedPublicKey: pki.unrelatedPin)
            try await NetworkAuthSupport.withClient { client in
                let response = try await client.execute(NetworkAuthSupport.request(nginx.tlsFileURL, pinned))
                #expect(response.status == 200)
                #expect(response.bodyString == NginxAuthServer.tlsBody)
                let error = await #expect(throws: HTTPError.self) { try await client.execute(NetworkAuthSupport.request(nginx.tlsFileURL, wrong)) }
                #expect(error?.code == .tls)
                #expect(error?.isRetryable == false)
            }
            // A client whose rules pin the wrong key for one origin still reaches another origin (same server
            // key, by name) whose rule has no pin.
            let rules = [
                HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: pki.caCertificate, pinnedPublicKey: pki.unrelatedPin),
                HTTPCredentialRule(match: .origin("https://localhost:\(nginx.httpsPort)"), caBundlePath: pki.caCertificate),
            ]
            try await NetworkAuthSupport.withClient(HTTPClientConfiguration(credentials: rules)) { client in
                let pinnedOrigin = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: nginx.tlsFileURL)) }
                #expect(pinnedOrigin?.code == .tls)
                let other = try await client.execute(HTTPRequest(url: "https://localhost:\(nginx.httpsPort)/files/tls.txt"))
                #expect(other.status == 200)
            }
        }
    }
}
