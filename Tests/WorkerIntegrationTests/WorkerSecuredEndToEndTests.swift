import FeatureQuerySupport
import Foundation
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// A worker with a credentials file querying a secured sample server through Kafka: an API key applied by
/// name and by scope, a public layer untouched, and, once a reload removes the key, `authentication_required`.
@Suite("Worker end to end: secured services")
struct WorkerSecuredEndToEndTests {
    @Test func apiKeyByNameAndByScopeThenRemoved() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let keyFile = try folder.write("api.key", "sample-api-key\n")
        let path = folder.path("credentials.json")
        let authority = SampleTokenAuthority()
        let harness = try await WorkerHarness(security: SampleSecurity(authority: authority, role: .standalone)) { _ in
        } prepare: { settings, server in
            try folder.write("credentials.json", CredentialsFolder.file(
                #"{"name": "sample-key", "kind": "apiKey", "scope": "\#(server.securedBaseURL)", "key": {"file": "\#(keyFile)"}}"#))
            settings.credentialsFile = path
        }
        let secured = harness.server.securedLayerURL(.parcels)
        let query = #"{"where":"UseType = 'Government'"}"#
        try await harness.send("named", WorkerHarness.request("named", url: secured, query: query, extra: #","credential":"sample-key""#))
        try await harness.send("scoped", WorkerHarness.request("scoped", url: secured, query: query))
        try await harness.send("public", WorkerHarness.request("public", url: harness.url(.parcels), query: query))
        let outcomes = try await harness.outcomesByRequest(3).compactMapValues(\.first)
        let truth = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'")
        for id in ["named", "scoped", "public"] {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            if case .array(let layers)? = outcomes[id]?["layers"], case .array(let ids)? = layers.first?["objectIds"] {
                #expect(ids.count == truth.count, "\(id)")
            } else {
                Issue.record("\(id) has no objectIds")
            }
        }

        try folder.write("credentials.json", CredentialsFolder.file())
        try await harness.waitForCredentials { $0.isEmpty }
        try await harness.send("removed", WorkerHarness.request("removed", url: secured, query: query))
        let after = try await harness.outcomes(1)
        #expect(after.first?.status == "failed" && after.first?.errorCode == "authentication_required", "\(after)")
        for outcome in Array(outcomes.values) + after {
            #expect(!String(decoding: ContractSupport.json(outcome), as: UTF8.self).contains("sample-api-key"))
        }
        try await harness.stop()
    }

    /// ArcGIS tokens made by the worker: five requests share one token call; a wrong password is
    /// `credential_rejected`; no password or token reaches an outcome.
    @Test func tokensSharedAndAWrongPassword() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let right = try folder.write("viewer.password", "viewer-password\n")
        let wrong = try folder.write("wrong.password", "wrong-MARKER-password\n")
        let authority = SampleTokenAuthority()
        func token(_ name: String, _ passwordFile: String, scope: String) -> String {
            #"{"name": "\#(name)", "kind": "token", "scope": "\#(scope)", "username": "viewer", "#
                + #""password": {"file": "\#(passwordFile)"}, "referer": "https://worker.example", "expirationMinutes": 60}"#
        }
        let harness = try await WorkerHarness(security: SampleSecurity(authority: authority, role: .standalone)) { _ in
        } prepare: { settings, server in
            let scope = server.rootURL + "/arcgis"
            settings.credentialsFile = try folder.write(
                "credentials.json", CredentialsFolder.file(token("viewer-token", right, scope: scope), token("bad", wrong, scope: scope)))
        }
        let secured = harness.server.securedLayerURL(.parcels)
        let ids = (1...5).map { "t\($0)" }
        for id in ids {
            try await harness.send(id, WorkerHarness.request(
                id, url: secured, query: #"{"result":"count"}"#, extra: #","credential":"viewer-token""#))
        }
        try await harness.send("bad", WorkerHarness.request("bad", url: secured, extra: #","credential":"bad""#))
        let outcomes = try await harness.outcomesByRequest(6).compactMapValues(\.first)
        for id in ids {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
        }
        #expect(authority.counters.serverGenerateToken == 2, "one call per credential: \(authority.counters)")
        #expect(outcomes["bad"]?.status == "failed" && outcomes["bad"]?.errorCode == "credential_rejected", "\(String(describing: outcomes["bad"]))")
        for outcome in outcomes.values {
            let text = String(decoding: ContractSupport.json(outcome), as: UTF8.self)
            #expect(!text.contains("wrong-MARKER") && !text.contains("viewer-password"))
        }
        try await harness.stop()
    }
}
