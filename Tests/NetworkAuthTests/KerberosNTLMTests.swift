import CurlHTTP
import NetworkAuthFixture
import Testing

/// Negotiate (Kerberos from a keytab, no kinit) against apache2's mod_auth_gssapi with a private KDC, and
/// NTLM against pyspnego's acceptor.
@Suite("Network authentication: Kerberos and NTLM")
struct KerberosNTLMTests {
    @Test("Negotiate: libcurl gets a ticket from the client keytab (process-wide) and apache2 accepts it",
          .enabled(if: ApacheAuthServer.isKerberosAvailable, "krb5-kdc, krb5-admin-server, krb5-user and libapache2-mod-auth-gssapi are needed (scripts/setup-deps installs them)"))
    func negotiate() async throws {
        try await NetworkAuthSupport.withUpstream { upstream in
            try await KerberosRealm.with { realm in
                try await ApacheAuthServer.with(upstream: upstream, kerberos: realm) { apache in
                    // libcurl has no per-handle Kerberos identity: the worker sets these once at start.
                    realm.useClientKeytabInThisProcess()
                    // The user name and password are ignored for Negotiate: the identity is the keytab's.
                    let rule = HTTPCredentialRule(match: .origin(apache.localhostOrigin), authentication: HTTPAuthentication(scheme: .negotiate, username: "", password: ""))
                    try await NetworkAuthSupport.withClient { client in
                        let file = try await client.execute(NetworkAuthSupport.request(apache.negotiateFileURL, rule))
                        #expect(file.status == 200, "\(apache.errorLog.suffix(1_000))")
                        #expect(file.bodyString == ApacheAuthServer.negotiateBody)
                        let proxied = try await client.execute(NetworkAuthSupport.request(apache.localhostOrigin + "/arcgis/rest/services", rule))
                        #expect(proxied.status == 200)
                        #expect(proxied.bodyString == NetworkAuthSupport.upstreamAnswer("/arcgis/rest/services", via: apache.localhostOrigin))
                        let anonymous = try await client.execute(HTTPRequest(url: apache.negotiateFileURL))
                        #expect(anonymous.status == 401)
                        #expect(anonymous.headers["WWW-Authenticate"] == "Negotiate")
                    }
                }
            }
        }
    }

    @Test("NTLM: libcurl's two legs on one connection; a wrong password is a 401",
          .enabled(if: NTLMServer.isAvailable, "pyspnego in the interop Python is needed (scripts/setup-deps installs it into .venv)"))
    func ntlm() async throws {
        try await NetworkAuthSupport.withUpstream { upstream in
            try await NTLMServer.with(upstream: upstream) { server in
                let match = HTTPCredentialRule.Match.origin(server.origin)
                let good = HTTPCredentialRule(match: match, authentication: HTTPAuthentication(scheme: .ntlm, username: NTLMServer.qualifiedUser, password: NTLMServer.password))
                let wrong = HTTPCredentialRule(match: match, authentication: HTTPAuthentication(scheme: .ntlm, username: NTLMServer.qualifiedUser, password: "guess"))
                // Each client's connection authenticates once: separate clients keep the cases apart.
                try await NetworkAuthSupport.withClient { client in
                    let file = try await client.execute(NetworkAuthSupport.request(server.fileURL, good))
                    #expect(file.status == 200, "\(server.log.suffix(1_000))")
                    #expect(file.bodyString == NTLMServer.body)
                    #expect(file.headers["X-NTLM-User"] == NTLMServer.qualifiedUser)
                    let proxied = try await client.execute(NetworkAuthSupport.request(server.origin + "/upstream/layers?f=json", good))
                    #expect(proxied.status == 200)
                    #expect(proxied.bodyString == NetworkAuthSupport.upstreamAnswer("/upstream/layers?f=json", via: server.origin))
                }
                try await NetworkAuthSupport.withClient { client in
                    let refused = try await client.execute(NetworkAuthSupport.request(server.fileURL, wrong))
                    #expect(refused.status == 401)
                }
                try await NetworkAuthSupport.withClient { client in
                    let anonymous = try await client.execute(HTTPRequest(url: server.fileURL))
                    #expect(anonymous.status == 401)
                    #expect(anonymous.headers["WWW-Authenticate"] == "NTLM")
                }
            }
        }
    }
}
