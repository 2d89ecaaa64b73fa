import CurlHTTP
import HTTPTestServer
import Testing

/// HTTP authentication that libcurl performs: Basic against nginx, Digest against Apache's
/// mod_auth_digest, and the NTLM and Negotiate options accepted by the client.
@Suite("HTTP authentication")
struct AuthenticationTests {
    @Test("Basic: accepted with credentials for the origin, 401 without or with a wrong password",
          .enabled(if: Tools.available("nginx", "openssl"), "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func basic() async throws {
        try await NginxServer.with { nginx in
            let url = nginx.httpURL + "/basic/secret.txt"
            let origin = HTTPCredentialRule.Match.origin(nginx.httpURL)
            let good = HTTPAuthentication(scheme: .basic, username: NginxServer.basicUser, password: NginxServer.basicPassword)
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, authentication: good)])) { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 200)
                #expect(response.bodyString == "basic secret\n")
            }
            try await TestSupport.withClient { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 401)
                #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
            }
            let wrong = HTTPAuthentication(scheme: .basic, username: NginxServer.basicUser, password: "guess")
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, authentication: wrong)])) { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 401)
            }
        }
    }

    @Test("Digest: libcurl answers Apache's challenge; 401 without credentials",
          .enabled(if: Tools.available("apache2", "openssl"), "apache2 (apache2-bin) and openssl are needed (scripts/setup-deps installs them)"))
    func digest() async throws {
        try await ApacheDigestServer.with { apache in
            let url = apache.baseURL + "/digest/secret.txt"
            let origin = HTTPCredentialRule.Match.origin(apache.baseURL)
            for scheme in [HTTPAuthentication.Scheme.digest, .any] {
                let credentials = HTTPAuthentication(scheme: scheme, username: ApacheDigestServer.user, password: ApacheDigestServer.password)
                try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: origin, authentication: credentials)])) { client in
                    let response = try await client.execute(HTTPRequest(url: url))
                    #expect(response.status == 200, "\(scheme)")
                    #expect(response.bodyString == "digest secret\n")
                    // The challenge round's 401 is not what the caller sees.
                    #expect(response.headers["WWW-Authenticate"] == nil)
                }
            }
            try await TestSupport.withClient { client in
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 401)
                #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Digest") == true)
            }
        }
    }

    @Test("NTLM and Negotiate are accepted by the client (no server here to complete them)", arguments: [HTTPAuthentication.Scheme.ntlm, .negotiate])
    func ntlmAndNegotiateAccepted(_ scheme: HTTPAuthentication.Scheme) async throws {
        try await TestSupport.withServer({ _ in .text("open to all") }) { server in
            let credentials = HTTPAuthentication(scheme: scheme, username: "DOMAIN\\user", password: "pw")
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [HTTPCredentialRule(match: .origin(server.baseURL), authentication: credentials)])) { client in
                let response = try await client.execute(HTTPRequest(url: server.url("/")))
                #expect(response.status == 200)
                #expect(response.bodyString == "open to all")
            }
        }
    }

    @Test("The password never appears in the authentication's description")
    func descriptionHidesPassword() {
        let credentials = HTTPAuthentication(scheme: .basic, username: "analyst", password: "s3cret-value")
        #expect(!credentials.description.contains("s3cret-value"))
        #expect(!"\(HTTPCredentialRule(match: .origin("https://gis.example.com"), authentication: credentials))".contains("s3cret-value"))
    }
}
