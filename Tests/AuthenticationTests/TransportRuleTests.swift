@testable import Authentication
import Credentials
import CurlHTTP
import Logging
import Testing

/// Token and `rest/info` calls get the server trust and client certificate of their URL, never its HTTP
/// authentication or token.
@Suite("Token calls' transport credentials")
struct TransportRuleTests {
    @Test("a token call gets the CA of its URL's scope and nothing else; an uncovered URL gets nothing")
    func transportRule() throws {
        let authenticator = try CredentialAuthenticatorTests.make(ScriptedIssuer())
        let rule = try #require(authenticator.transportRule(for: "https://gis.test/arcgis/rest/services/Private/info"))
        #expect(rule.caBundlePath == "/etc/ssl/certs/ca-certificates.crt")
        #expect(rule.authentication == nil && rule.clientCertificate == nil)
        #expect(authenticator.transportRule(for: "https://portal.elsewhere.test/sharing/rest/generateToken") == nil)
    }
}
