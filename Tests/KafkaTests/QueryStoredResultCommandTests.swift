import ChildProcessFixture
import FeatureQuerySupport
import Foundation
import Kafka
import KafkaTestSupport
import ObjectStoreFixture
import StoredResults
import Testing

/// `query --wait` with a stored layer (contract 1.3), the test playing a worker that stores: it writes the layer to
/// moto as the worker's writer does, and once `query` has published its request, publishes the result carrying the
/// layer's location. `query` then fetches the object through the presigned URL (its SHA-256 checked) and prints
/// it as an inline layer, or with `--location-only` prints the location. `export --store` writes to moto, read
/// back with boto3.
@Suite struct QueryStoredResultCommandTests {
    /// moto without signature checking: it answers 500 to presigned GETs when checking is on (docs/object-store.md).
    static let openMoto = Task<MotoServer, any Error> { try await MotoServer.start(bucket: "results", signatureChecking: false) }

    static func feature(_ id: Int) -> [UInt8] {
        Array(#"{"type":"Feature","id":\#(id),"geometry":{"type":"Point","coordinates":[-118.5,34.\#(id)]},"properties":{"OBJECTID":\#(id)}}"#.utf8)
    }

    static let layerURL = "http://127.0.0.1:9/arcgis/rest/services/S/FeatureServer/0"

    /// A succeeded result of one layer whose selection is `object`, with the `request-id` header.
    static func result(requestId: String, object: MotoServer.StoredObject, ids: Bool, sha256: String? = nil) -> KafkaProducerMessage {
        let now = RFC3339.string(fromMilliseconds: WallClock.nowMilliseconds())
        let summary = object.stored.summary
        var location = #"{"url":"\#(object.url)","httpUrl":"\#(object.httpURL)","#
            + #""expiresAt":"\#(RFC3339.string(fromMilliseconds: Int64(object.expiresAt.timeIntervalSince1970 * 1000)))","#
            + #""bytes":\#(summary.bytes),"sha256":"\#(sha256 ?? summary.sha256)","contentType":"\#(object.stored.contentType)""#
        if let encoding = object.stored.contentEncoding { location += #","contentEncoding":"\#(encoding)""# }
        location += ids ? #","ids":\#(summary.features)}"# : #","features":\#(summary.features)}"#
        let value = #"{"requestId":"\#(requestId)","taskId":"\#(requestId)","status":"succeeded","worker":"test","#
            + #""receivedAt":"\#(now)","finishedAt":"\#(now)","durationMs":5,"#
            + #""layers":[{"url":"\#(layerURL)","layerId":0,"status":"succeeded","count":\#(summary.features),"complete":true,"#
            + #""location":\#(location)}]}"#
        return KafkaProducerMessage(
            topic: "feature-query-results", key: requestId, value: value, headers: [KafkaHeader(key: "request-id", string: requestId)])
    }

    /// Runs `query --wait` with `arguments` against an embedded cluster, answering its request with the result of
    /// `object`; its output.
    static func queryAnswered(
        by object: MotoServer.StoredObject, ids: Bool, sha256: String? = nil, _ arguments: [String]
    ) async throws -> CommandOutput {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let kafka = try CommandChild.start(
            executable,
            ["embedded-kafka", "--topic", "feature-queries:1", "--topic", "feature-query-results:1",
             "--topic", "feature-query-errors:1", "--log-level", "warning"])
        defer { kafka.terminate() }
        let bootstrap = try #require(kafka.firstLine, "no bootstrap line")
        let client = KafkaClientConfiguration(bootstrapServers: [bootstrap], clientID: "query-stored-tests")
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client, linger: .zero), logger: TestSupport.logger)
        let requests = try KafkaPartitionReader(client: client, fetchWaitMax: EmbeddedKafkaCluster.fetchWaitMax, logger: TestSupport.logger)
        let requestId = "stored-\(UUID().uuidString.prefix(8))"
        return try await TestSupport.withRunning(producers: [producer]) {
            try requests.assign([KafkaTopicPartition(topic: "feature-queries", partition: 0): KafkaPartitionReader.beginning])
            async let query = CommandOutput.run(
                executable,
                ["query", "--bootstrap-servers", bootstrap, "--wait", "--wait-timeout", "60s", "--no-progress", "--request-id", requestId,
                 "--target", layerURL, "--delivery", "store"] + arguments)
            let request = try await KafkaPartitionReaderTests.read(requests, count: 1)
            let text = request.first?.value.map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(text.contains(#""delivery":"store""#), "the request asks for the store: \(text)")
            _ = try await producer.send(Self.result(requestId: requestId, object: object, ids: ids, sha256: sha256))
            return try await query
        }
    }

    @Test func locationOnlyPrintsWhereTheLayerIs() async throws {
        let moto = try await Self.openMoto.value
        let object = try await moto.storeObject((0..<50).map(Self.feature), format: .ndjson, compression: .zstd, name: "location-only")
        let output = try await Self.queryAnswered(by: object, ids: false, ["--result", "features", "--format", "ndjson", "--compression", "zstd", "--location-only"])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("stored \(object.url) (50 features, "), "\(output)")
        #expect(output.stdout.contains("application/x-ndjson, zstd, sha256 \(object.stored.summary.sha256)"), "\(output)")
        #expect(output.stdout.contains("httpUrl \(object.httpURL)"), "\(output)")
        #expect(!output.stdout.contains("features (GeoJSON)"), "nothing fetched: \(output)")
    }

    @Test func waitFetchesAStoredLayerAndPrintsItAsAnInlineOne() async throws {
        let moto = try await Self.openMoto.value
        let features = (0..<40).map(Self.feature)
        let object = try await moto.storeObject(features, format: .geojson, compression: .gzip, name: "fetched")
        let output = try await Self.queryAnswered(by: object, ids: false, ["--result", "features", "--compression", "gzip"])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("stored \(object.url) (40 features"), "\(output)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let marker = try #require(lines.firstIndex(of: "    features (GeoJSON):"), "\(output)")
        let collection = try #require(lines.dropFirst(marker + 1).first)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(collection.utf8)) as? [String: Any])
        #expect((document["features"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == Array(0..<40))
    }

    @Test func waitFetchesStoredIds() async throws {
        let moto = try await Self.openMoto.value
        let object = try await moto.storeObject((1...30).map { Array(String($0 * 10).utf8) }, format: .ndjson, compression: nil, name: "ids")
        let output = try await Self.queryAnswered(by: object, ids: true, ["--result", "ids", "--format", "ndjson"])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("    ids 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, … (30 in all)"), "\(output)")
    }

    @Test func aStoredLayerWithAnotherChecksumIsAnErrorNotAResult() async throws {
        let moto = try await Self.openMoto.value
        let object = try await moto.storeObject((0..<20).map(Self.feature), format: .ndjson, compression: nil, name: "tampered")
        let output = try await Self.queryAnswered(
            by: object, ids: false, sha256: SHA256.hexDigest(Array("other".utf8)), ["--result", "features", "--format", "ndjson"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains("client_stored_result_checksum_mismatch"), "\(output)")
        #expect(!output.stdout.contains(#""type":"Feature""#), "no unverified feature printed: \(output)")
    }

    /// The flags land in the request as the contract spells them (no Kafka needed with `--dry-run`), and what the
    /// contract refuses is a usage error before anything is published.
    @Test func theFlagsSetTheRequestsFieldsOrAreRefused() async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let dryRun = try await CommandOutput.run(
            executable,
            ["query", "--dry-run", "--bootstrap-servers", "127.0.0.1:1", "--target", Self.layerURL, "--result", "features",
             "--delivery", "store", "--format", "ndjson", "--compression", "zstd"])
        #expect(dryRun.status == 0, "\(dryRun)")
        let request = try #require(try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any], "\(dryRun)")
        #expect(request["delivery"] as? String == "store" && request["format"] as? String == "ndjson")
        #expect(request["compression"] as? String == "zstd")
        let refusals: [([String], String)] = [
            (["query", "--target", Self.layerURL, "--location-only"], "--location-only applies only with --wait"),
            (["query", "--target", Self.layerURL, "--delivery", "inline", "--format", "ndjson"], "with --delivery inline leave them out"),
            (["export", "--arcgis", Self.layerURL, "--compression", "gzip"], "go with --store"),
        ]
        for (arguments, message) in refusals {
            let output = try await CommandOutput.run(executable, arguments)
            #expect(output.status != 0 && output.stderr.contains(message), "\(arguments): \(output)")
        }
    }

    /// `export --store` writes the layer's features to moto (signatures checked) and prints their location, whose
    /// size and SHA-256 are those of the object boto3 reads back.
    @Test func exportStoreWritesTheFeaturesAndPrintsTheLocation() async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let serverExecutable = try #require(QueryWorkerCommandTests.sampleServer, "sample-feature-server was not built")
        let moto = try await MotoServer.start(bucket: "exports")
        defer { Task { await moto.stop() } }
        let server = try CommandChild.start(serverExecutable, ["--parcels", "2000", "--log-level", "warning"])
        defer { server.stop() }
        let services = try #require(server.firstLine, "no services URL")
        let output = try await CommandOutput.run(
            executable,
            ["export", "--arcgis", "\(services)/USA/MapServer/0", "--where", "ST = 'CA'", "--no-progress",
             "--store", "s3://exports/runs/today", "--store-endpoint", moto.endpoint, "--store-region", moto.region,
             "--format", "ndjson", "--compression", "gzip"],
            environment: moto.clientEnvironment)
        #expect(output.status == 0, "\(output)")
        let location = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output)")
        let url = try #require(location["url"] as? String)
        #expect(url.hasPrefix("s3://exports/runs/today/export/"))
        #expect(url.hasSuffix(".ndjson.gz") && url.contains("/layer0-"), "one object per layer, named as the worker names them")
        #expect(location["contentType"] as? String == "application/x-ndjson")
        #expect(location["contentEncoding"] as? String == "gzip")
        let features = try #require(location["features"] as? Int)
        #expect(features > 0)
        #expect((location["httpUrl"] as? String)?.contains("X-Amz-Signature=") == true)
        let key = String(url.dropFirst("s3://exports/".count))
        let stored = try await moto.readWithBoto3(key: key)
        #expect(stored.count == location["bytes"] as? Int)
        #expect(SHA256.hexDigest(stored) == location["sha256"] as? String)
    }
}
