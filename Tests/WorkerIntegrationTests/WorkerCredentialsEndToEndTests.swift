import FeatureQuerySupport
import Foundation
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// A worker with a credentials file, end to end through Kafka: a request naming a credential the worker does
/// not have is rejected, the file is reloaded while the worker runs, and a credential must cover every target.
/// (Requests sent with the credentials to a secured server: WorkerCredentialsTokenEndToEndTests.)
@Suite("Worker end to end: credentials")
struct WorkerCredentialsEndToEndTests {
    static let keyMarker = "sample-key-MARKER-e2e1"

    @Test func unknownReloadedAndMismatchedCredentials() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let keyFile = try folder.write("sample.key", Self.keyMarker)
        func apiKey(_ name: String, scope: String) -> String {
            #"{"name": "\#(name)", "kind": "apiKey", "scope": "\#(scope)", "key": {"file": "\#(keyFile)"}}"#
        }
        let path = try folder.write("credentials.json", CredentialsFolder.file(apiKey("other-key", scope: "https://elsewhere.example")))
        let harness = try await WorkerHarness { $0.credentialsFile = path }
        let layer = harness.url(.parcels)

        try await harness.send("u", WorkerHarness.request("u", url: layer, extra: #","credential":"sample-key""#))
        let first = try await harness.outcomes(1)
        #expect(first.first?.status == "rejected" && first.first?.errorCode == "unknown_credential")

        // The sample server's port is known only now: the worker picks the new file up while it runs.
        try folder.write("credentials.json", CredentialsFolder.file(
            apiKey("other-key", scope: "https://elsewhere.example"), apiKey("sample-key", scope: harness.server.rootURL)))
        try await harness.waitForCredentials { $0.contains("sample-key") }

        try await harness.send("k", WorkerHarness.request(
            "k", url: layer, query: #"{"where":"UseType = 'Government'"}"#, extra: #","credential":"sample-key""#))
        try await harness.send("m", WorkerHarness.request("m", url: layer, extra: #","credential":"other-key""#))
        let outcomes = try await harness.outcomesByRequest(2).compactMapValues(\.first)
        #expect(outcomes["k"]?.status == "succeeded", "\(String(describing: outcomes["k"]))")
        let truth = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'")
        if case .array(let layers)? = outcomes["k"]?["layers"], case .array(let ids)? = layers.first?["objectIds"] {
            #expect(ids.count == truth.count)
        } else {
            Issue.record("k has no objectIds")
        }
        #expect(outcomes["m"]?.status == "rejected" && outcomes["m"]?.errorCode == "credential_scope_mismatch")
        #expect(outcomes["m"]?["error"]?["details"]?["credential"] == .string("other-key"))
        for outcome in first + Array(outcomes.values) {
            #expect(!String(decoding: ContractSupport.json(outcome), as: UTF8.self).contains(Self.keyMarker))
        }
        try await harness.stop()
    }
}
