import FeatureQuerySupport
import Foundation
import NetworkAuthFixture
import Testing

@testable import SampleFeatureServer
import QueryWorker
import Logging
import Synchronization
import WorkerTestSupport

/// Issue 13, section 4: every credential kind with its own marker secrets, the worker logging at trace level
/// (libcurl's verbose output included), and then not one marker, and not one token the servers issued, in any
/// log line (as written, and as handed to the logger before redaction), any outcome, any Kafka message, key or
/// header, or the start-up settings echo. The requests really used the secrets: they succeeded (or failed the
/// way a wrong secret fails) and the servers' counters moved, so the search can't pass for want of material.
@Suite("Worker end to end: no secret leaks")
struct WorkerCredentialsLeakEndToEndTests {
    @Test(.enabled(if: NginxAuthServer.isAvailable || NetworkAuthTools.interopRequired, "nginx and openssl are needed"))
    func noSecretOfAnyKindIsWrittenAnywhere() async throws {
        let markers = LeakMarkers()
        let authority = markers.authority()
        let front = StartedBox<NginxAuthServer>()
        let harness: SecuredWorkerHarness
        do {
            harness = try await SecuredWorkerHarness(logLevel: .trace, authority: authority) { servers, folder in
                let nginx = try await NginxAuthServer.start(upstream: try NetworkAuthUpstream(origin: servers.standalone.rootURL))
                front.set(nginx)
                return try markers.credentials(servers, nginx, folder)
            }
        } catch {
            await front.server?.stop()
            throw error
        }
        let nginx = try #require(front.server)
        let servers = harness.servers
        let cities = try WorkerHarness.collection(.cities)
        let requests: [(id: String, json: String)] = [
            ("token", SecuredWorkerHarness.request("token", url: servers.federated.securedLayerURL(.parcels), query: Self.government)),
            ("wrong", SecuredWorkerHarness.request(
                "wrong", url: servers.standalone.securedLayerURL(.parcels), query: Self.count, credential: "leak-wrong")),
            ("pregenerated", SecuredWorkerHarness.request("pregenerated", url: servers.standalone.securedLayerURL(.cities), query: Self.california)),
            ("expired", SecuredWorkerHarness.request("expired", url: servers.standalone.securedLayerURL(.legacyParcels), query: Self.count)),
            ("app", SecuredWorkerHarness.request("app", url: servers.portal.securedLayerURL(.cities), query: Self.california)),
            ("user", SecuredWorkerHarness.request("user", url: servers.portal.securedLayerURL(.parcels), query: Self.government)),
            ("oauth2", SecuredWorkerHarness.request("oauth2", url: servers.portal.securedLayerURL(.legacyParcels), query: Self.count)),
            ("key", WorkerHarness.ogcRequest("key", landing: servers.standalone.securedOGCURL, collection: cities, query: #"{"where":"ST = 'CA'"}"#)),
            ("basic", SecuredWorkerHarness.request("basic", url: nginx.httpOrigin + "/arcgis/rest/services/" + SampleLayer.cities.path, query: Self.california)),
            ("certificate", SecuredWorkerHarness.request(
                "certificate", url: nginx.mtlsOrigin + "/arcgis/rest/services/" + SampleLayer.cities.path, query: Self.california)),
        ]
        for (id, json) in requests { try await harness.send(id, json) }
        let outcomes = try await harness.outcome(requests.map(\.id))

        // The secrets were used: each request succeeded, or failed as its wrong or expired secret must.
        let california = try harness.dataset.groundTruthObjectIDs(.cities, where: "ST = 'CA'")
        let government = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'")
        for id in ["pregenerated", "app", "basic", "certificate"] {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.firstLayer?.integerObjectIDs?.sorted() == california, "\(id)")
        }
        for id in ["token", "user"] {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.firstLayer?.integerObjectIDs?.sorted() == government, "\(id)")
        }
        #expect(outcomes["oauth2"]?.status == "succeeded", "\(String(describing: outcomes["oauth2"]))")
        #expect((outcomes["oauth2"]?.firstLayer?.integer("count") ?? 0) > 0)
        #expect(outcomes["key"]?.status == "succeeded", "\(String(describing: outcomes["key"]))")
        #expect(outcomes["key"]?.firstLayer?.integerFeatureIDs?.sorted() == california)
        #expect(outcomes["wrong"]?.layerOrOutcomeErrorCode == "credential_rejected", "\(String(describing: outcomes["wrong"]))")
        #expect(outcomes["expired"]?.layerOrOutcomeErrorCode == "credential_expired", "\(String(describing: outcomes["expired"]))")
        let counters = authority.counters
        #expect(counters.generateToken >= 1 && counters.exchange >= 1, "the token's password signed in: \(counters)")
        #expect(counters.wrongPasswords >= 1, "the wrong password was sent: \(counters)")
        #expect(counters.oauthToken("client_credentials") >= 2, "both client secrets were sent: \(counters)")
        #expect(counters.oauthToken("refresh_token") >= 1, "the refresh token was sent: \(counters)")
        #expect(counters.ogcUnauthorized == 0 && servers.standalone.statistics.ogcItemRequests(cities) >= 1)
        let accessLog = nginx.accessLog()
        #expect(accessLog.contains { $0.hasPrefix("200 /arcgis/") && $0.hasSuffix(" \(NginxAuthServer.basicUser)") }, "\(accessLog.suffix(10))")

        // Everything written, at trace level: there is material to search (libcurl's header lines among it).
        let lines = harness.logs.lines
        let events = harness.logs.events
        let messages = harness.messages
        #expect(lines.contains { $0.contains(#""message":"starting""#) && $0.contains("leak-cert") }, "the settings echo was written")
        #expect(lines.contains { $0.contains(#""message":"curl > "#) && $0.contains("X-Esri-Authorization") }, "libcurl's verbose header lines were logged")
        #expect(messages.count >= requests.count)

        let issued = authority.state.withLock { Array($0.tokens.keys) + Array($0.refreshTokens.keys) }
        #expect(issued.count >= 4, "tokens were issued: \(issued.count)")
        let searched: [(what: String, texts: [String])] = [
            ("log lines", lines), ("log events before redaction", events), ("Kafka messages", messages.map(\.text)),
        ]
        for (label, secret) in markers.all + issued.map({ ("an issued token", $0) }) {
            for (what, texts) in searched {
                let hits = texts.filter { $0.contains(secret) }
                #expect(hits.isEmpty, "\(label) found in \(hits.count) \(what): \(hits.prefix(2).map { String($0.prefix(300)) })")
            }
        }
        await nginx.stop()
        try await harness.stop()
    }

    static let count = #"{"result":"count"}"#
    static let california = #"{"where":"ST = 'CA'"}"#
    static let government = #"{"where":"UseType = 'Government'"}"#
}

/// The marker secrets of one run, the sample authority that accepts them, and the credentials that use them.
struct LeakMarkers: Sendable {
    let run = String(UUID().uuidString.prefix(8))
    var password: String { "pw-MARKER-\(run)" }
    var wrongPassword: String { "wrongpw-MARKER-\(run)" }
    var pregeneratedToken: String { "pregen-MARKER-\(run)" }
    var expiredKey: String { "expiredkey-MARKER-\(run)" }
    var apiKey: String { "apikey-MARKER-\(run)" }
    var clientSecret: String { "clientsecret-MARKER-\(run)" }
    var oauth2Secret: String { "oauth2secret-MARKER-\(run)" }
    var refreshToken: String { "refresh-MARKER-\(run)" }

    /// Every secret, named. nginx's fixed test passwords stand as markers of their kinds (distinctive words),
    /// the Basic one also as the header libcurl builds from it.
    var all: [(String, String)] {
        let basic = Data("\(NginxAuthServer.basicUser):\(NginxAuthServer.basicPassword)".utf8).base64EncodedString()
        return [
            ("the token password", password), ("the wrong password", wrongPassword), ("the pre-generated token", pregeneratedToken),
            ("the expired API key", expiredKey), ("the API key", apiKey), ("the oauthApp client secret", clientSecret),
            ("the oauth2 client secret", oauth2Secret), ("the refresh token", refreshToken),
            ("the Basic password", NginxAuthServer.basicPassword), ("the Basic header", basic), ("the PKCS#12 password", "p12-pass"),
        ]
    }

    /// The deployment's authority: a user, two confidential clients and a public one, API keys (one expired) and
    /// a refresh token, all with marker secrets.
    func authority() -> SampleTokenAuthority {
        let authority = SampleTokenAuthority(
            users: SampleTokenAuthority.defaultUsers + [SampleUser(username: "leak-user", password: password)],
            clients: SampleTokenAuthority.defaultClients + [
                SampleOAuthClient(clientID: "leak-app", clientSecret: clientSecret),
                SampleOAuthClient(clientID: "leak-oauth2", clientSecret: oauth2Secret),
                SampleOAuthClient(clientID: "leak-user-app", clientSecret: nil),
            ],
            apiKeys: [apiKey, pregeneratedToken, expiredKey])
        authority.expireAPIKey(expiredKey)
        let expires = nowMilliseconds() + 86_400_000
        authority.state.withLock {
            $0.refreshTokens[refreshToken] = IssuedRefreshToken(clientID: "leak-user-app", username: "leak-user", expiresAt: expires)
        }
        return authority
    }

    /// One credential of each kind (two `token`s: one right, one wrong; two `apiKey`s: one valid, one expired).
    func credentials(_ servers: SecuredServers, _ nginx: NginxAuthServer, _ folder: CredentialsFolder) throws -> [String] {
        let standalone = servers.standalone.serverRootURL + "/rest/services/Secured/"
        let portal = servers.portal.serverRootURL + "/rest/services/Secured/"
        let now = nowMilliseconds()
        let refreshFile = try folder.write(
            "refresh.json", #"{"refreshToken": "\#(refreshToken)", "issuedAt": \#(now), "expiresAt": \#(now + 14 * 86_400_000)}"#)
        return [
            CredentialJSON.token(
                "leak-token", scope: [servers.federated.serverRootURL, servers.portalURL], username: "leak-user",
                password: try folder.secret("password", password)),
            CredentialJSON.pregeneratedToken(
                "leak-pregenerated", scope: [standalone + "USA/MapServer"], token: try folder.secret("pregenerated", pregeneratedToken)),
            CredentialJSON.apiKey(
                "leak-expired", scope: [standalone + "LA_County_Parcels_Legacy/MapServer"], key: try folder.secret("expired", expiredKey)),
            // Covers the whole standalone server, but the two above are more specific: used where picked.
            CredentialJSON.token(
                "leak-wrong", scope: [servers.standalone.serverRootURL], username: "leak-user",
                password: try folder.secret("wrong", wrongPassword)),
            CredentialJSON.oauthApp(
                "leak-app", scope: [portal + "USA/MapServer"], portal: servers.portalURL, clientID: "leak-app",
                secret: try folder.secret("client", clientSecret)),
            CredentialJSON.oauthUser(
                "leak-user", scope: [portal + "LA_County_Parcels/FeatureServer"], portal: servers.portalURL,
                clientID: "leak-user-app", refreshTokenFile: refreshFile),
            CredentialJSON.oauth2(
                "leak-oauth2", scope: [portal + "LA_County_Parcels_Legacy/MapServer"],
                tokenURL: servers.portalURL + "/sharing/rest/oauth2/token", clientID: "leak-oauth2",
                secret: try folder.secret("oauth2", oauth2Secret)),
            CredentialJSON.apiKey(
                "leak-key", scope: [servers.standalone.securedOGCURL], key: try folder.secret("key", apiKey), parameter: "X-API-Key"),
            CredentialJSON.password(
                "leak-basic", scope: [nginx.httpOrigin], scheme: "basic", username: NginxAuthServer.basicUser,
                password: try folder.secret("basic", NginxAuthServer.basicPassword)),
            CredentialJSON.serverTrust("leak-ca", scope: [nginx.mtlsOrigin], caFile: nginx.certificates.caCertificate),
            CredentialJSON.certificate(
                "leak-cert", scope: [nginx.mtlsOrigin], path: nginx.certificates.clientPKCS12,
                password: try folder.secret("p12", nginx.certificates.pkcs12Password)),
        ]
    }

    private func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
