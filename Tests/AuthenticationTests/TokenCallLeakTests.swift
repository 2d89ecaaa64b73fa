import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import Foundation
import Logging
import Synchronization
import Testing

/// Every token call of every kind, successful and failing, with the issuer and the HTTP client logging at
/// trace level: no password, client secret, token or refresh token appears in a log line or failure message.
@Suite("Token calls leak no secret")
struct TokenCallLeakTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let sink: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(event.message) \(merged)")
        }
    }

    @Test("all kinds, trace logs and failure messages: zero hits for any secret")
    func noLeaks() async throws {
        let lines = Lines()
        var logger = Logger(label: "leak") { _ in Capture(sink: lines) }
        logger.logLevel = .trace
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        let portal = try await FakePortal.start()
        let client = try HTTPClient(logger: logger)
        let issuer = ArcGISTokenIssuer(client: client, resolver: TestSupport.resolver, logger: logger)
        var secrets = [FakePortal.password, FakePortal.appSecret, FakePortal.oauth2Secret, "not-the-password", "not-the-secret"]
        var messages: [String] = []
        let base = portal.base
        let credentials = try [
            #""name":"gis","kind":"token","scope":"\#(base)","username":"analyst","password":{"env":"PW"},"referer":"r","expirationMinutes":60"#,
            #""name":"bad","kind":"token","scope":"\#(base)","username":"analyst","password":{"env":"WRONG_PW"},"referer":"r","expirationMinutes":60"#,
            #""name":"app","kind":"oauthApp","scope":"\#(base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(FakePortal.appID)","clientSecret":{"env":"APP_SECRET"},"expirationMinutes":60"#,
            #""name":"badapp","kind":"oauthApp","scope":"\#(base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(FakePortal.appID)","clientSecret":{"env":"WRONG_SECRET"},"expirationMinutes":60"#,
            #""name":"idp","kind":"oauth2","scope":"\#(base)","tokenUrl":"\#(base)/oauth/token","clientId":"\#(FakePortal.oauth2Client)","clientSecret":{"env":"O2_SECRET"}"#,
            #""name":"badidp","kind":"oauth2","scope":"\#(base)","tokenUrl":"\#(base)/oauth/token","clientId":"\#(FakePortal.oauth2Client)","clientSecret":{"env":"WRONG_SECRET"}"#,
            #""name":"me","kind":"oauthUser","scope":"\#(base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(FakePortal.userClientID)","refreshTokenFile":"\#(file)","redirectUri":"http://127.0.0.1:7890/cb""#,
        ].map(TestSupport.credential)

        // A session due for exchange, so the refresh, the exchange and the write-back all run.
        let now = WallClock.nowMilliseconds()
        let seeded = "rt-seeded-marker-\(UUID().uuidString)"
        portal.configure { $0.refreshTokens[seeded] = now + 86_400_000 }
        try RefreshTokenFile(refreshToken: Secret(seeded), issuedAtMilliseconds: now - 86_400_000, expiresAtMilliseconds: now + 86_400_000).write(path: file)
        secrets.append(seeded)

        for target in ["/fed/rest/services/A/FeatureServer/0", "/standalone/rest/services/B/FeatureServer/0"] {
            for credential in credentials {
                do {
                    let audience = try await issuer.audience(for: credential, url: base + target)
                    let issued = try await issuer.issue(credential, for: audience)
                    secrets.append(issued.grant.token.revealed())
                } catch let error as TokenFailure {
                    messages.append(error.message)
                } catch let error as AuthenticationFailure {
                    messages.append(error.message)
                }
            }
        }
        secrets.append(try RefreshTokenFile.read(path: file).refreshToken.revealed())
        await issuer.signOut(credentials[6])
        await client.shutdown()
        await portal.shutdown()

        #expect(messages.count == 6)  // three wrong secrets, twice
        #expect(secrets.count == 5 + 2 + 8)  // five markers, two refresh tokens, four good credentials twice
        #expect(!lines.all.isEmpty)
        for secret in secrets {
            #expect(!lines.all.contains { $0.contains(secret) }, "a log line contains a secret")
            #expect(!messages.contains { $0.contains(secret) }, "a failure message contains a secret")
        }
        // Server-side texts that could echo what was sent are not quoted either.
        #expect(!messages.contains { $0.contains("marker-message") || $0.contains("marker-description") || $0.contains("Invalid username") })
    }
}
