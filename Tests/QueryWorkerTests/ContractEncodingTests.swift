import ArcGISEngine
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import Kafka
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// Outcome values and their JSON: the encoder reproduces the documented examples, and everything it writes
/// satisfies the schemas.
@Suite struct ContractEncodingTests {
    static let parcels = "https://services3.arcgis.com/GVgbJbqm8hXASVYi/arcgis/rest/services/LA_County_Parcels/FeatureServer/0"
    static let usa = "https://sampleserver6.arcgisonline.com/arcgis/rest/services/USA/MapServer"

    static func ms(_ text: String) throws -> Int64 { try #require(RFC3339.milliseconds(from: text)) }

    static func example(_ name: String) throws -> ParsedJSON {
        let prefix = String(name.prefix { $0 != "-" })
        let file = try #require(try ContractSupport.examples(prefix: prefix).first { $0.name == name })
        return try ParsedJSON(parsing: file.bytes)
    }

    static func source(partition: Int32, offset: Int64, key: String?) -> MessageSource {
        MessageSource(topic: "feature-queries", partition: partition, offset: offset, key: key.map { Array($0.utf8) })
    }

    static func parcel(_ id: Int64, use: String, value: Double, x: Double, y: Double) -> Feature {
        let ring = [
            Position(x: x, y: y), Position(x: x, y: y + 0.0004), Position(x: x + 0.0005, y: y + 0.0004),
            Position(x: x + 0.0005, y: y), Position(x: x, y: y),
        ]
        return Feature(
            objectId: id,
            attributes: ["OBJECTID": .number(Double(id)), "UseType": .string(use), "Roll_LandValue": .number(value)],
            geometry: .polygon(Polygon(rings: [ring], spatialReference: .wgs84)))
    }

    // MARK: The documented examples, reproduced

    /// Contract 1.3: a stored layer carries `location` (the claim check) instead of its selection.
    @Test func storedResultMatchesItsExample() throws {
        let key = "feature-queries/export-parcels/export-parcels-2025-06-01/layer0-5d1c64b2e9a0.ndjson.zst"
        let stored = StoredSelection(
            kind: .features, url: "s3://results/\(key)",
            httpURL: "https://results.s3.us-east-1.amazonaws.com/\(key)?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20250601%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20250601T130412Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=4f2c1e8b0b7c3d6a9e5f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d",
            expiresAt: try Self.ms("2025-06-01T14:04:12.000Z"), bytes: 391_284_117,
            sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", contentType: "application/x-ndjson",
            contentEncoding: "zstd", count: 2_400_000)
        let message = ResultMessage(
            requestId: "export-parcels-2025-06-01", taskId: "export-parcels",
            layers: [
                ServiceLayerOutcome(
                    url: Self.parcels, layerId: 0, name: "LA_County_Parcels", objectIdField: "OBJECTID",
                    outcome: .succeeded(count: 2_400_000, complete: true, selection: .stored(stored))),
            ],
            receivedAt: try Self.ms("2025-06-01T13:00:00.000Z"), finishedAt: try Self.ms("2025-06-01T13:04:12.500Z"),
            worker: "query-worker-7d9f/1")
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("result-stored.json"))
    }

    @Test func idsResultMatchesItsExample() throws {
        let message = ResultMessage(
            requestId: "map-view-1/0042", taskId: "map-view-1",
            layers: [
                ServiceLayerOutcome(
                    url: Self.parcels, layerId: 0, name: "LA_County_Parcels", objectIdField: "OBJECTID",
                    outcome: .succeeded(count: 6, complete: true, selection: .objectIds([
                        1_183_202, 1_183_207, 1_183_211, 1_183_290, 1_184_001, 1_184_017,
                    ]))),
            ],
            receivedAt: try Self.ms("2025-06-01T12:00:00.120Z"), finishedAt: try Self.ms("2025-06-01T12:00:00.870Z"),
            worker: "query-worker-7d9f/1")
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("result-ids.json"))
        #expect(message.key == Array("map-view-1".utf8))
        #expect(message.headers == [
            KafkaHeader(key: "request-id", string: "map-view-1/0042"), KafkaHeader(key: "task-id", string: "map-view-1"),
        ])
        #expect(try message.split(maxBytes: 1_000_000) == [message.encoded()])
    }

    @Test func partialResultMatchesItsExample() throws {
        let failing = "\(Self.usa)/3"
        let error = FeatureServiceError(
            .httpStatus, "\(failing) answered HTTP 503 after 4 attempts", layer: failing, isRetryable: true, httpStatus: 503)
        let message = ResultMessage(
            requestId: "usa-ca-2", taskId: "usa-ca-2",
            layers: [
                ServiceLayerOutcome(
                    url: "\(Self.usa)/0", layerId: 0, name: "Cities", objectIdField: "objectid",
                    outcome: .succeeded(count: 3, complete: true, selection: .objectIds([101, 102, 140]))),
                ServiceLayerOutcome(url: failing, outcome: .failed(error)),
            ],
            receivedAt: try Self.ms("2025-06-01T12:10:00Z"), finishedAt: try Self.ms("2025-06-01T12:10:04.250Z"),
            worker: "query-worker-7d9f/1")
        #expect(message.status == .partial)
        #expect(message.durationMs == 4250)
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("result-partial.json"))
    }

    @Test func supersededErrorMatchesItsExample() throws {
        let request = QueryRequest(
            requestId: "map-view-1/0042", taskId: "map-view-1", receivedAt: try Self.ms("2025-06-01T12:00:00.120Z"),
            targets: [.arcgis(url: Self.parcels, layers: nil)], query: QuerySpec())
        let message = ErrorMessage.superseded(
            request, by: "map-view-1/0043", source: Self.source(partition: 3, offset: 18_209, key: "map-view-1"),
            worker: "query-worker-7d9f/1", finishedAt: try Self.ms("2025-06-01T12:00:00.530Z"))
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("error-superseded.json"))
        #expect(message.key == Array("map-view-1".utf8))
    }

    @Test func cancelledAndExpiredErrorsMatchTheirExamples() throws {
        let drawn = QueryRequest(
            requestId: "drawn-area-9", taskId: "drawn-area", receivedAt: try Self.ms("2025-06-01T12:02:00Z"),
            targets: [.arcgis(url: Self.parcels, layers: nil)], query: QuerySpec())
        let cancelled = ErrorMessage.cancelled(
            drawn, source: Self.source(partition: 1, offset: 5120, key: "drawn-area"), worker: "query-worker-7d9f/2",
            finishedAt: try Self.ms("2025-06-01T12:02:01.250Z"))
        #expect(try ParsedJSON(parsing: cancelled.encoded()) == Self.example("error-cancelled.json"))

        let report = QueryRequest(
            requestId: "report-2025-06-01-gov", taskId: "report-government", deadline: try Self.ms("2025-06-01T12:05:00Z"),
            receivedAt: try Self.ms("2025-06-01T12:00:01.005Z"), targets: [.arcgis(url: Self.parcels, layers: nil)],
            query: QuerySpec())
        let expired = ErrorMessage.expired(
            report, source: Self.source(partition: 2, offset: 771, key: "report-government"), worker: "query-worker-7d9f/2",
            finishedAt: try Self.ms("2025-06-01T12:05:00Z"))
        #expect(try ParsedJSON(parsing: expired.encoded()) == Self.example("error-expired.json"))
    }

    @Test func unreadableMessageErrorMatchesItsExample() throws {
        let value: [UInt8] = [0xFF, 0x00]
        guard case .rejected(let rejection) = try ContractSupport.decoder().decode(value, key: [0xDE, 0xAD, 0xBE, 0xEF], receivedAt: 0)
        else {
            Issue.record("not rejected")
            return
        }
        let message = ErrorMessage.rejected(
            rejection, source: MessageSource(topic: "feature-queries", partition: 0, offset: 977, key: [0xDE, 0xAD, 0xBE, 0xEF]),
            worker: "query-worker-7d9f/2", receivedAt: try Self.ms("2025-06-01T12:01:00Z"),
            finishedAt: try Self.ms("2025-06-01T12:01:00Z"))
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("error-rejected-not-json.json"))
        #expect(message.key == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(message.headers.isEmpty)
    }

    @Test func failedErrorMatchesItsExample() throws {
        let missing = "\(Self.usa)/9"
        let layerError = ContractError(.init("not_found"), "\(missing) does not exist (HTTP 404)")
        let request = QueryRequest(
            requestId: "usa-ca-3", receivedAt: try Self.ms("2025-06-01T12:03:00Z"), targets: [.arcgis(url: missing, layers: nil)],
            query: QuerySpec())
        let message = ErrorMessage(
            requestId: request.requestId, taskId: request.taskId, status: .failed,
            error: .allLayersFailed([(url: missing, error: layerError)]),
            source: Self.source(partition: 0, offset: 1001, key: "usa-ca-3"), worker: "query-worker-7d9f/1",
            receivedAt: request.receivedAt, finishedAt: try Self.ms("2025-06-01T12:03:00.310Z"))
        #expect(try ParsedJSON(parsing: message.encoded()) == Self.example("error-failed.json"))
    }

    // MARK: Values

    @Test func allLayersFailedTakesTheCommonCodeOrLayersFailed() {
        let a = ContractError(.init("transport"), "a timed out", retryable: true)
        let b = ContractError(.init("not_found"), "b does not exist")
        let same = ContractError.allLayersFailed([(url: "https://h/a/MapServer/0", error: a), (url: "https://h/a/MapServer/1", error: a)])
        #expect(same.code.rawValue == "transport")
        #expect(same.retryable)
        #expect(same.message == "all 2 layers failed with transport: a timed out")
        let mixed = ContractError.allLayersFailed([(url: "https://h/a/MapServer/0", error: a), (url: "https://h/a/MapServer/1", error: b)])
        #expect(mixed.code == .layersFailed)
        #expect(mixed.retryable)
        guard case .array(let layers)? = mixed.details?["layers"] else {
            Issue.record("no details.layers")
            return
        }
        #expect(layers.count == 2)
    }

    @Test func arcGISErrorsKeepTheirFacts() {
        let error = FeatureServiceError(
            .serviceError, "the service said no", layer: "https://h/S/FeatureServer/0", isRetryable: true, httpStatus: 200,
            serviceCode: 500, details: ["Unable to complete operation."], retryAfter: .milliseconds(1500))
        let converted = ContractError(error)
        #expect(converted.code.rawValue == "service_error")
        #expect(converted.retryable)
        #expect(converted.details == .object([
            "layer": .string("https://h/S/FeatureServer/0"), "httpStatus": .number(200), "serviceCode": .number(500),
            "serviceDetails": .array([.string("Unable to complete operation.")]), "retryAfterMs": .number(1500),
        ]))
    }

    /// The seam's outcomes go into the result as the engine gave them: each is written as its layer entry.
    @Test func engineOutcomesAreWrittenAsLayerEntries() throws {
        let features = try GeoJSONFeatureList(
            [Self.parcel(7, use: "Government", value: 10, x: -118.8, y: 34.03)],
            fieldOrder: ["OBJECTID", "UseType", "Roll_LandValue"], layer: Self.parcels)
        let found = ServiceLayerResult(
            url: Self.parcels, layerId: 0, name: "Parcels", objectIdField: "OBJECTID", count: 1, isComplete: true,
            selection: .features(features), requests: 1)
        var counted = found
        counted.url = Self.parcels + "x"
        counted.selection = .countOnly
        let message = ResultMessage(
            requestId: "r", taskId: "t",
            layers: [
                ServiceLayerOutcome(url: found.url, result: .success(found)),
                ServiceLayerOutcome(url: "\(Self.usa)/3", result: .failure(FeatureServiceError(.notFound, "gone", layer: "\(Self.usa)/3"))),
                ServiceLayerOutcome(url: counted.url, result: .success(counted)),
            ],
            receivedAt: 1_748_779_200_000, finishedAt: 1_748_779_200_500, worker: "w")
        #expect(message.status == .partial)
        let layers = try #require(try ParsedJSON(parsing: message.encoded())["layers"]?.arrayValue)
        #expect(layers.count == 3)
        #expect(layers[0]["status"] == .string("succeeded"))
        #expect(layers[0]["count"] == .number(1))
        #expect(layers[0]["objectIds"] == .array([.number(7)]))
        #expect(layers[0]["name"] == .string("Parcels"))
        #expect(layers[1]["status"] == .string("failed"))
        #expect(layers[1]["error"]?["code"] == .string("not_found"))
        #expect(layers[1]["name"] == nil)
        #expect(layers[2]["count"] == .number(1))
        #expect(layers[2]["objectIds"] == nil)
    }

    @Test func stringsAreEscaped() throws {
        let worker = "w\"\\\n\t\u{1}é😀"
        let message = ResultMessage(
            requestId: "r", taskId: "t", layers: [], receivedAt: 0, finishedAt: 5, worker: worker)
        let parsed = try ParsedJSON(parsing: message.encoded())
        #expect(parsed["worker"] == .string(worker))
        #expect(parsed["receivedAt"] == .string("1970-01-01T00:00:00.000Z"))
        #expect(parsed["layers"] == .array([]))
    }

    @Test func keysAreTextBase64OrNull() throws {
        func source(_ key: [UInt8]?) throws -> ParsedJSON? {
            let message = ErrorMessage(
                requestId: nil, taskId: nil, status: .rejected, error: ContractError(.invalidJSON, "x"),
                source: MessageSource(topic: "t", partition: 1, offset: 2, key: key), worker: "w", receivedAt: 0, finishedAt: 0)
            return try ParsedJSON(parsing: message.encoded())["source"]
        }
        #expect(try source(Array("täsk".utf8))?["key"] == .string("täsk"))
        #expect(try source(Array("täsk".utf8))?["keyEncoding"] == nil)
        #expect(try source(nil)?["key"] == .null)
        #expect(try source([0xFF])?["key"] == .string("/w=="))
        #expect(try source([0xFF, 0xFE])?["key"] == .string("//4="))
        #expect(try source([0xC3])?["keyEncoding"] == .string("base64"))
        #expect(Base64.encode(Array("Man".utf8)) == "TWFu")
        #expect(Base64.encode([]) == "")
    }

    // MARK: Against the schemas

    /// A sample of everything the encoder writes: each result kind, split parts, every error status.
    static func encodedOutcomes() throws -> [(schema: String, bytes: [UInt8])] {
        var documents: [(schema: String, bytes: [UInt8])] = []
        var parcels: [Feature] = []
        for index in 1...40 {
            let use = index % 3 == 0 ? "Government" : "Residential"
            let x = -118.8 + Double(index) * 0.001
            parcels.append(Self.parcel(Int64(index), use: use, value: Double(index) * 1000.5, x: x, y: 34.03))
        }
        let features = try GeoJSONFeatureList(parcels, fieldOrder: ["OBJECTID", "UseType", "Roll_LandValue"], layer: Self.parcels)
        let noGeometry = try GeoJSONFeatureList(
            [Feature(objectId: 9, attributes: ["name": .string("x"), "flag": .bool(true), "none": .null])], fieldOrder: ["name"],
            layer: "\(Self.usa)/1")
        let layers = [
            ServiceLayerOutcome(url: Self.parcels, layerId: 0, name: "LA_County_Parcels", objectIdField: "OBJECTID",
                        outcome: .succeeded(count: 41, complete: false, selection: .features(features))),
            ServiceLayerOutcome(url: "\(Self.usa)/0", layerId: 0, name: "Cities", objectIdField: "objectid",
                        outcome: .succeeded(count: 500, complete: true, selection: .objectIds((1...500).map { Int64($0) }))),
            ServiceLayerOutcome(url: "\(Self.usa)/1", layerId: 1, name: "Highways", objectIdField: "objectid",
                        outcome: .succeeded(count: 1, complete: true, selection: .features(noGeometry))),
            ServiceLayerOutcome(url: "\(Self.usa)/2", layerId: 2, name: "States", objectIdField: "objectid",
                        outcome: .succeeded(count: 3, complete: true, selection: .countOnly)),
            ServiceLayerOutcome(url: "\(Self.usa)/3", outcome: .failed(FeatureServiceError(.transport, "timed out", layer: "\(Self.usa)/3", isRetryable: true))),
            ServiceLayerOutcome(url: "\(Self.usa)/4", layerId: 4, name: "Empty", objectIdField: "objectid",
                        outcome: .succeeded(count: 0, complete: true, selection: .objectIds([]))),
        ]
        let result = ResultMessage(requestId: "r-1", taskId: "t-1", layers: layers, receivedAt: 1_748_779_200_000,
                                   finishedAt: 1_748_779_201_234, worker: "worker-1")
        documents.append(("result", try result.encoded()))
        for maxBytes in [1_500, 4_000] {
            documents += try result.split(maxBytes: maxBytes).map { ("result", $0) }
        }
        let succeeded = ResultMessage(requestId: "r-2", taskId: "r-2", layers: Array(layers[1...1]), receivedAt: 0,
                                      finishedAt: 0, worker: "w")
        documents.append(("result", try succeeded.encoded()))
        documents.append(("result", try ResultMessage(requestId: "r-3", taskId: "r-3", layers: [], receivedAt: 5,
                                                      finishedAt: 4, worker: "w").encoded()))

        let request = QueryRequest(requestId: "r-4", taskId: "t-4", deadline: 1_748_779_260_000, receivedAt: 1_748_779_200_000,
                                   targets: [.arcgis(url: Self.parcels, layers: nil)], query: QuerySpec())
        let source = MessageSource(topic: "feature-queries", partition: 5, offset: 12, key: Array("t-4".utf8))
        let errors: [ErrorMessage] = [
            .superseded(request, by: "r-5", source: source, worker: "w", finishedAt: 1_748_779_200_100),
            .cancelled(request, source: source, worker: "w", finishedAt: 1_748_779_200_100),
            .cancelled(request, reason: .shutdown, source: source, worker: "w", finishedAt: 1_748_779_200_100),
            .cancelled(request, reason: .partitionRevoked, source: source, worker: "w", finishedAt: 1_748_779_200_100),
            .expired(request, source: source, worker: "w", finishedAt: 1_748_779_260_000),
            ErrorMessage(requestId: "r-4", taskId: "t-4", status: .failed,
                         error: .allLayersFailed([(url: Self.parcels, error: ContractError(.init("not_found"), "gone")),
                                                  (url: "\(Self.usa)/0", error: ContractError(.init("transport"), "slow", retryable: true))]),
                         source: source, worker: "w", receivedAt: 0, finishedAt: 0),
            ErrorMessage(requestId: "r-4", taskId: "t-4", status: .failed,
                         error: ContractError(.resultTooLarge, "too big", details: .object(["limit": .number(10)])),
                         source: MessageSource(topic: "q", partition: 0, offset: 0, key: nil), worker: "w", receivedAt: 0, finishedAt: 0),
        ]
        documents += errors.map { ("error", $0.encoded()) }
        // Every rejection the decoder produces, as the worker would publish it.
        for example in RejectionCase.all {
            let decoder = try ContractSupport.decoder(limits: example.limits, allowFreeClauses: example.allowFreeClauses)
            guard case .rejected(let rejection) = decoder.decode(example.value, key: example.key.map { Array($0.utf8) },
                                                                 receivedAt: 0) else { continue }
            let message = ErrorMessage.rejected(
                rejection, source: MessageSource(topic: "feature-queries", partition: 0, offset: 1, key: [0x80, 0x81]),
                worker: "w", receivedAt: 1_748_779_200_000, finishedAt: 1_748_779_200_001)
            documents.append(("error", message.encoded()))
        }
        return documents
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func everythingTheEncoderWritesSatisfiesTheSchemas() async throws {
        let documents = try Self.encodedOutcomes()
        #expect(documents.count > 40)
        let verdicts = try await ContractSupport.validate(documents)
        for (index, verdict) in verdicts.enumerated() where !verdict.valid {
            let text = String(decoding: documents[index].bytes.prefix(600), as: UTF8.self)
            Issue.record("\(documents[index].schema) document \(index) is invalid: \(verdict.errors)\n\(text)")
        }
    }
}
