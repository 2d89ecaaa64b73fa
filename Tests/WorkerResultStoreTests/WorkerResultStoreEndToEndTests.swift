import FeatureQuerySupport
import Foundation
import ObjectStoreFixture
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// The result store through Kafka (issue 31): a worker without a store refuses `delivery: store` with
/// `store_not_configured`; a worker with moto as its store publishes a stored layer's location, and the object
/// at it holds the layer's features (the same ids as the ground truth), checked by boto3 and its SHA-256.
@Suite("Worker result store end to end")
struct WorkerResultStoreEndToEndTests {
    @Test func storeDeliveryOnAWorkerWithoutAStoreIsRefused() async throws {
        let harness = try await WorkerHarness()
        try await harness.send("s", WorkerHarness.request("s", url: harness.url(.parcels), extra: #","delivery":"store""#))
        try await harness.send("a", WorkerHarness.request("a", url: harness.url(.states), query: #"{"result":"count"}"#, extra: #","delivery":"auto""#))
        let outcomes = try await harness.outcomesByRequest(2).compactMapValues(\.first)
        #expect(outcomes["s"]?.status == "rejected")
        #expect(outcomes["s"]?.errorCode == "store_not_configured")
        #expect(outcomes["s"]?["error"]?["retryable"] == .bool(false))
        if case .string(let message)? = outcomes["s"]?["error"]?["message"] {
            #expect(message.contains("resultStore"))
        }
        #expect(outcomes["a"]?.status == "succeeded", "auto without a store is inline")
        #expect(harness.server.statistics.requests > 0)
        try await harness.stop()
    }

    /// `delivery: store` of a features layer (the 20,000 sample parcels with geometry) to moto checking every
    /// signature: the result's layer carries a `location` and no `features`; the object there is a
    /// FeatureCollection of exactly the ground truth's ids, its size and SHA-256 those of the location.
    @Test func aStoredLayerArrivesAsALocationOfTheWholeLayer() async throws {
        let moto = try await MotoServer.start(bucket: "results")
        let environment = moto.clientEnvironment.merging(["AWS_REGION": moto.region]) { $1 }
        let harness = try await WorkerHarness(configure: { settings in
            settings.resultStore.location = "s3://\(moto.bucket)/e2e"
            settings.resultStore.endpoint = moto.endpoint
            settings.resultStore.partBytes = 5 << 20
        }, environment: environment)
        try await harness.send("stored", WorkerHarness.request(
            "big", task: "stored", url: harness.url(.parcels), query: #"{"result":"features","returnGeometry":true}"#,
            extra: #","delivery":"store","format":"geojson""#))
        let outcome = try #require(try await harness.outcomesByRequest(1)["big"]?.first)
        #expect(outcome.status == "succeeded", "\(outcome)")
        guard case .array(let layers)? = outcome["layers"], let layer = layers.first, let location = layer["location"] else {
            Issue.record("no stored layer: \(outcome)")
            try await harness.stop()
            await moto.stop()
            return
        }
        #expect(layer["features"] == nil)
        guard case .string(let url)? = location["url"], case .string(let sha256)? = location["sha256"],
            case .number(let bytes)? = location["bytes"], case .number(let count)? = location["features"]
        else {
            Issue.record("an incomplete location: \(location)")
            try await harness.stop()
            await moto.stop()
            return
        }
        #expect(url.hasPrefix("s3://\(moto.bucket)/e2e/stored/big/"))
        if case .string(let expiresAt)? = location["expiresAt"] { #expect(expiresAt.hasSuffix("Z")) }
        let key = String(url.dropFirst("s3://\(moto.bucket)/".count))
        let read = try await moto.readWithBoto3(key: key)
        #expect(read.count == Int(bytes) && SHA256.hexDigest(read) == sha256)
        let truth = try harness.dataset.groundTruthObjectIDs(.parcels, where: "1=1")
        let collection = try JSONSerialization.jsonObject(with: Data(read)) as? [String: Any]
        let ids = (collection?["features"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
        #expect(Int(count) == truth.count)
        #expect(ids.sorted() == truth.sorted())
        let uploads = try await moto.runAWSCLI(["s3api", "list-multipart-uploads", "--bucket", moto.bucket, "--prefix", "e2e/"])
        #expect(!uploads.contains("UploadId"), "no multipart upload left behind")
        try await harness.stop()
        await moto.stop()
    }
}
