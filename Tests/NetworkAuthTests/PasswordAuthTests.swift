import CurlHTTP
import NetworkAuthFixture
import Testing

/// Password authentication against real servers, with credentials handed over per request (as the worker
/// does): Basic (nginx), Digest (apache2), each also in front of a proxied upstream.
@Suite("Network authentication: passwords")
struct PasswordAuthTests {
    @Test("Basic via nginx: the file and the proxied upstream with the password; 401 without or with a wrong one",
          .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func basic() async throws {
        try await NetworkAuthSupport.withUpstream { upstream in
            try await NginxAuthServer.with(upstream: upstream) { nginx in
                let origin = HTTPCredentialRule.Match.origin(nginx.httpOrigin)
                let good = HTTPCredentialRule(match: origin, authentication: HTTPAuthentication(
                    scheme: .basic, username: NginxAuthServer.basicUser, password: NginxAuthServer.basicPassword))
                let wrong = HTTPCredentialRule(match: origin, authentication: HTTPAuthentication(
                    scheme: .basic, username: NginxAuthServer.basicUser, password: "guess"))
                try await NetworkAuthSupport.withClient { client in
                    let file = try await client.execute(NetworkAuthSupport.request(nginx.basicFileURL, good))
                    #expect(file.status == 200)
                    #expect(file.bodyString == NginxAuthServer.basicBody)

                    let proxied = try await client.execute(NetworkAuthSupport.request(nginx.httpOrigin + "/arcgis/rest/services?f=json", good))
                    #expect(proxied.status == 200)
                    // The upstream got the path and query, the front's Host, and not the front's Authorization.
                    #expect(proxied.bodyString == NetworkAuthSupport.upstreamAnswer("/arcgis/rest/services?f=json", via: nginx.httpOrigin))

                    let anonymous = try await client.execute(HTTPRequest(url: nginx.httpOrigin + "/upstream/layers/0"))
                    #expect(anonymous.status == 401)
                    #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
                    let refused = try await client.execute(NetworkAuthSupport.request(nginx.basicFileURL, wrong))
                    #expect(refused.status == 401)
                }
            }
        }
    }

    @Test("Digest via apache2: the file and the proxied upstream; 401 without credentials",
          .enabled(if: ApacheAuthServer.isAvailable, "apache2 (apache2-bin) and openssl are needed (scripts/setup-deps installs them)"))
    func digest() async throws {
        try await NetworkAuthSupport.withUpstream { upstream in
            try await ApacheAuthServer.with(upstream: upstream) { apache in
                let rule = HTTPCredentialRule(match: .origin(apache.origin), authentication: HTTPAuthentication(
                    scheme: .digest, username: ApacheAuthServer.digestUser, password: ApacheAuthServer.digestPassword))
                try await NetworkAuthSupport.withClient { client in
                    let file = try await client.execute(NetworkAuthSupport.request(apache.digestFileURL, rule))
                    #expect(file.status == 200)
                    #expect(file.bodyString == ApacheAuthServer.digestBody)
                    let proxied = try await client.execute(NetworkAuthSupport.request(apache.origin + "/ogc/collections?f=json", rule))
                    #expect(proxied.status == 200)
                    #expect(proxied.bodyString == NetworkAuthSupport.upstreamAnswer("/ogc/collections?f=json", via: apache.origin))
                    let anonymousProxied = try await client.execute(HTTPRequest(url: apache.origin + "/ogc/collections"))
                    #expect(anonymousProxied.status == 401)
                    let anonymous = try await client.execute(HTTPRequest(url: apache.digestFileURL))
                    #expect(anonymous.status == 401)
                    #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Digest") == true)
                }
            }
        }
    }

    @Test("Per-request credentials whose match does not cover the URL: a credential error, nothing sent",
          .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func perRequestRuleMustCoverTheURL() async throws {
        try await NginxAuthServer.with { nginx in
            let authentication = HTTPAuthentication(scheme: .basic, username: NginxAuthServer.basicUser, password: NginxAuthServer.basicPassword)
            let elsewhere: [HTTPCredentialRule.Match] = [
                .origin("http://127.0.0.1:\(nginx.httpsPort)"),
                .origin("http://localhost:\(nginx.httpPort)"),
                .prefix(nginx.httpOrigin + "/other/"),
            ]
            try await NetworkAuthSupport.withClient { client in
                for match in elsewhere {
                    let rule = HTTPCredentialRule(match: match, authentication: authentication)
                    let error = await #expect(throws: HTTPError.self, "\(match)") {
                        try await client.execute(NetworkAuthSupport.request(nginx.basicFileURL, rule))
                    }
                    #expect(error?.code == .credential, "\(match)")
                }
                let before = nginx.accessLog().count
                #expect(before == 0)
                let covering = HTTPCredentialRule(match: .prefix(nginx.httpOrigin + "/basic/"), authentication: authentication)
                let response = try await client.execute(NetworkAuthSupport.request(nginx.basicFileURL, covering))
                #expect(response.status == 200)
                // Only the covering request reached nginx (which logs just after it answers).
                let deadline = ContinuousClock.now + .seconds(5)
                while nginx.accessLog().count <= before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(nginx.accessLog() == ["200 /basic/secret.txt \(NginxAuthServer.basicUser)"])
            }
        }
    }
}
