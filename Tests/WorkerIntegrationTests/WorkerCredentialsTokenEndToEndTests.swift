import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// Requests with credentials through Kafka against the secured sample deployment:
/// tokens per server (a portal token exchanged for a federated server's, a standalone server's own), a named
/// credential picking one of two, OAuth client credentials, an API key on every OGC page, and each way a
/// credential can fail, with the token calls counted at the servers.
@Suite("Worker end to end: tokens")
struct WorkerCredentialsTokenEndToEndTests {
    static let government = #"{"where":"UseType = 'Government'"}"#

    @Test func tokensPerServerNamedPicksAndEveryRefusal() async throws {
        let harness = try await SecuredWorkerHarness { servers, folder in
            let viewer = try folder.secret("viewer", "viewer-password")
            return [
                CredentialJSON.token(
                    "gis", scope: [servers.federated.serverRootURL, servers.standalone.serverRootURL, servers.portalURL],
                    username: "viewer", password: viewer),
                // As specific as "gis" on the standalone server and later in the file: used only when picked.
                CredentialJSON.token(
                    "outsider", scope: [servers.standalone.serverRootURL], username: "outsider",
                    password: try folder.secret("outsider", "outsider-password")),
                // Signs in at this portal, but covers a server federated with the other one.
                CredentialJSON.token(
                    "fixed-portal", scope: [servers.otherFederated.serverRootURL], username: "viewer", password: viewer,
                    tokenURL: servers.generateTokenURL),
                CredentialJSON.apiKey(
                    "ogc-key", scope: [servers.standalone.securedOGCURL], key: try folder.secret("ogc", "sample-ogc-key"),
                    parameter: "X-API-Key"),
            ]
        }
        let servers = harness.servers
        let (federated, standalone) = (servers.federated, servers.standalone)
        let requests: [(String, String)] = [
            ("federated", SecuredWorkerHarness.request("federated", url: federated.securedLayerURL(.parcels), query: Self.government)),
            ("standalone", SecuredWorkerHarness.request("standalone", url: standalone.securedLayerURL(.parcels), query: Self.government)),
            ("picked", SecuredWorkerHarness.request(
                "picked", url: standalone.securedLayerURL(.cities), query: #"{"result":"count"}"#, credential: "gis")),
            // The same query as "picked", another credential: the two never share a run.
            ("forbidden", SecuredWorkerHarness.request(
                "forbidden", url: standalone.securedLayerURL(.cities), query: #"{"result":"count"}"#, credential: "outsider")),
            ("unknown", SecuredWorkerHarness.request("unknown", url: standalone.securedLayerURL(.cities), credential: "nope")),
            ("mismatch", SecuredWorkerHarness.request("mismatch", url: standalone.securedLayerURL(.cities), credential: "ogc-key")),
            ("required", SecuredWorkerHarness.request("required", url: servers.otherPortal.securedLayerURL(.cities))),
            ("not-federated", SecuredWorkerHarness.request("not-federated", url: servers.otherFederated.securedLayerURL(.cities))),
        ]
        for (id, json) in requests { try await harness.send(id, json) }
        let outcomes = try await harness.outcome(requests.map(\.0))

        let truth = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'")
        try #require(!truth.isEmpty && truth.count < 20_000)
        for id in ["federated", "standalone"] {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.firstLayer?.integerObjectIDs?.sorted() == truth, "\(id): exactly the government parcels")
        }
        #expect(outcomes["picked"]?.status == "succeeded", "\(String(describing: outcomes["picked"]))")
        let cityCount = try harness.dataset.groundTruthObjectIDs(.cities).count
        #expect(outcomes["picked"]?.firstLayer?.integer("count") == cityCount)
        let refusals: [(id: String, status: String, code: String)] = [
            ("forbidden", "failed", "forbidden"), ("unknown", "rejected", "unknown_credential"),
            ("mismatch", "rejected", "credential_scope_mismatch"), ("required", "failed", "authentication_required"),
            ("not-federated", "failed", "not_federated"),
        ]
        for (id, status, code) in refusals {
            #expect(outcomes[id]?.status == status, "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.layerOrOutcomeErrorCode == code, "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?["error"]?["retryable"] == .bool(false), "\(id) is not retryable")
        }

        // One portal token and one exchange for the federated server; the standalone server's own token service
        // once for "gis" and once for "outsider"; the 403 refreshed nothing; the other portal never saw a password.
        let counters = servers.authority.counters
        #expect(counters.generateToken == 1 && counters.exchange == 1, "\(counters)")
        #expect(counters.serverGenerateToken == 2, "\(counters)")
        #expect(counters.rejected(403) >= 1 && counters.wrongPasswords == 0, "\(counters)")
        #expect(servers.otherAuthority.counters.tokenCalls == 0, "\(servers.otherAuthority.counters)")
        // Tokens went in headers: the services never saw a `token` parameter, in a URL or a form.
        let serviceRequests = servers.servers.flatMap(\.statistics.recentRequests).filter { $0.path.contains("/rest/services/") }
        #expect(serviceRequests.filter { $0.path.contains("/Secured/") && $0.hadToken }.count >= 4)
        #expect(serviceRequests.allSatisfy { $0.parameter("token") == nil }, "a token parameter reached a service")

        // Again, other selections: the tokens are cached per credential and server, no token call is made.
        try await harness.send("federated-2", SecuredWorkerHarness.request(
            "federated-2", url: federated.securedLayerURL(.parcels), query: #"{"where":"UseType = 'Residential'","result":"count"}"#))
        try await harness.send("standalone-2", SecuredWorkerHarness.request(
            "standalone-2", url: standalone.securedLayerURL(.cities), query: #"{"where":"ST = 'CA'"}"#))
        let again = try await harness.outcome(["federated-2", "standalone-2"])
        let residential = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Residential'")
        #expect(again["federated-2"]?.firstLayer?.integer("count") == residential.count, "\(String(describing: again["federated-2"]))")
        let california = try harness.dataset.groundTruthObjectIDs(.cities, where: "ST = 'CA'")
        #expect(again["standalone-2"]?.firstLayer?.integerObjectIDs?.sorted() == california)
        #expect(servers.authority.counters.tokenCalls == counters.tokenCalls, "\(servers.authority.counters)")
        try await harness.stop()
    }

    @Test func oauthApplicationAndAnAPIKeyOnEveryOGCPage() async throws {
        let harness = try await SecuredWorkerHarness { servers, folder in
            [
                CredentialJSON.oauthApp(
                    "app", scope: [servers.portal.serverRootURL], portal: servers.portalURL, clientID: "sample-app",
                    secret: try folder.secret("app", "sample-app-secret")),
                CredentialJSON.apiKey(
                    "ogc-key", scope: [servers.standalone.securedOGCURL], key: try folder.secret("ogc", "sample-ogc-key"),
                    parameter: "X-API-Key"),
            ]
        }
        let servers = harness.servers
        let parcels = try WorkerHarness.collection(.parcels)
        try await harness.send("app", SecuredWorkerHarness.request(
            "app", url: servers.portal.securedLayerURL(.cities), query: #"{"where":"ST = 'CA'"}"#))
        try await harness.send("ogc", WorkerHarness.ogcRequest("ogc", landing: servers.standalone.securedOGCURL, collection: parcels))
        let outcomes = try await harness.outcome(["app", "ogc"])

        #expect(outcomes["app"]?.status == "succeeded", "\(String(describing: outcomes["app"]))")
        let california = try harness.dataset.groundTruthObjectIDs(.cities, where: "ST = 'CA'")
        #expect(outcomes["app"]?.firstLayer?.integerObjectIDs?.sorted() == california)
        #expect(servers.authority.counters.oauthToken("client_credentials") == 1, "\(servers.authority.counters)")

        // Every parcel, over more than one page (next links): each page carried the key, none was refused.
        #expect(outcomes["ogc"]?.status == "succeeded", "\(String(describing: outcomes["ogc"]))")
        let ids = try #require(outcomes["ogc"]?.firstLayer?.integerFeatureIDs)
        let every = try harness.dataset.groundTruthObjectIDs(.parcels)
        #expect(ids.count == 20_000 && ids.sorted() == every)
        #expect(servers.standalone.statistics.ogcItemRequests(parcels) >= 2, "the run followed next links")
        #expect(servers.authority.counters.ogcUnauthorized == 0, "\(servers.authority.counters)")

        // The same collection on a server no key covers: refused, nothing sent.
        try await harness.send("ogc-open", WorkerHarness.ogcRequest("ogc-open", landing: servers.federated.securedOGCURL, collection: parcels))
        let open = try await harness.outcome(["ogc-open"])["ogc-open"]
        #expect(open?.status == "failed" && open?.layerOrOutcomeErrorCode == "authentication_required", "\(String(describing: open))")
        #expect(servers.authority.counters.ogcUnauthorized >= 1)
        try await harness.stop()
    }

    @Test func aWrongPasswordCostsOneTokenCallForTwentyQueuedRequests() async throws {
        let harness = try await SecuredWorkerHarness { servers, folder in
            [
                CredentialJSON.token(
                    "wrong", scope: [servers.standalone.serverRootURL], username: "viewer",
                    password: try folder.secret("wrong", "not-the-viewer-password"))
            ]
        }
        let layer = harness.servers.standalone.securedLayerURL(.cities)
        // Twenty different queries: none joins another's run, each needs the token.
        let ids = (0..<20).map { "wrong-\($0)" }
        for (index, id) in ids.enumerated() {
            try await harness.send(id, SecuredWorkerHarness.request(
                id, url: layer, query: #"{"where":"OBJECTID > \#(index)","result":"count"}"#))
        }
        let outcomes = try await harness.outcome(ids)
        for id in ids {
            #expect(outcomes[id]?.status == "failed", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.layerOrOutcomeErrorCode == "credential_rejected", "\(id): \(String(describing: outcomes[id]))")
        }
        let counters = harness.authority.counters
        #expect(counters.serverGenerateToken == 1 && counters.wrongPasswords == 1, "one token call, not twenty: \(counters)")
        #expect(counters.accepted == 0)
        try await harness.stop()
    }
}
