import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import Testing

@testable import QueryWorker
import SampleFeatureServer
import WorkerTestSupport
@testable import RequestContract

/// Results larger than a message: split into parts within the limit, and put back together by the README's
/// algorithm into exactly the unsplit result.
@Suite struct ContractSplitTests {
    /// The README's reassembly: parts in order; an entry with a new URL starts a layer, one with a known URL
    /// appends its slices (`objectIds`, `featureIds`, `catalog`, `statistics`, `distinct`, `features.features`;
    /// `related` and `attachments` groups, a group continued from the previous part merged into its start).
    static func reassemble(_ parts: [[UInt8]]) throws -> ParsedJSON {
        try ResultParts.reassemble(parts.map { try ParsedJSON(parsing: $0) })
    }

    static func randomResult(_ random: inout SplitMix64) -> ResultMessage {
        let layerCount = Int.random(in: 0...5, using: &random)
        var layers: [ServiceLayerOutcome] = []
        for index in 0..<layerCount {
            let url = "https://gis.example.org/arcgis/rest/services/S\(index)/FeatureServer/\(Int.random(in: 0...30, using: &random))"
            let kind = Int.random(in: 0...9, using: &random)
            var ids: [Int64] = []
            var next = Int64.random(in: 0...1_000, using: &random)
            let count = kind < 5 ? Int.random(in: 0...[5, 200, 3_000][Int.random(in: 0...2, using: &random)], using: &random)
                : Int.random(in: 0...60, using: &random)
            for _ in 0..<count {
                ids.append(next)
                next += Int64.random(in: 1...(Bool.random(using: &random) ? 3 : 1 << 40), using: &random)
            }
            let outcome: LayerEntry
            switch kind {
            case 0..<5:
                outcome = .succeeded(count: ids.count + Int.random(in: 0...2, using: &random), complete: Bool.random(using: &random),
                                     selection: .objectIds(ids))
            case 5..<8:
                let features = ids.map { id -> (objectId: Int64, feature: [UInt8]) in
                    let padding = String(repeating: "x", count: Int.random(in: 0...2_500, using: &random))
                    return (id, Array(#"{"type":"Feature","id":\#(id),"geometry":null,"properties":{"p":"\#(padding)"}}"#.utf8))
                }
                outcome = .succeeded(count: ids.count, complete: true, selection: .features(GeoJSONFeatureList(encoded: features)))
            case 8:
                outcome = .succeeded(count: Int.random(in: 0...1_000_000, using: &random), complete: true, selection: .countOnly)
            default:
                outcome = .failed(FeatureServiceError(.transport, "layer \(index) timed out", layer: "layer \(index)", isRetryable: true))
            }
            layers.append(ServiceLayerOutcome(url: url, layerId: 0, name: "Layer \(index)", objectIdField: "OBJECTID", outcome: outcome))
        }
        return ResultMessage(
            requestId: "request-\(random.next() % 1000)", taskId: "task", layers: layers, receivedAt: 1_748_779_200_000,
            finishedAt: 1_748_779_200_000 + Int64.random(in: 0...100_000, using: &random), worker: "worker-1")
    }

    @Test func randomResultsSplitWithinTheLimitAndReassembleExactly() throws {
        var totalParts = 0
        for seed in UInt64(1)...80 {
            var random = SplitMix64(seed: seed)
            let result = Self.randomResult(&random)
            let whole = try result.encoded()
            // Large enough for any one feature (at most ~2.6 KB) with the envelope and a layer's fields.
            let maxBytes = Int.random(in: 3_500...max(3_500, whole.count + 200), using: &random)
            let parts = try result.split(maxBytes: maxBytes)
            totalParts += parts.count
            #expect(!parts.isEmpty, "seed \(seed)")
            for part in parts { #expect(part.count <= maxBytes, "seed \(seed): a part of \(part.count) > \(maxBytes)") }
            if whole.count <= maxBytes {
                #expect(parts == [whole], "seed \(seed): a result that fits is one message")
            }
            #expect(try Self.reassemble(parts) == (try ParsedJSON(parsing: whole)), "seed \(seed), maxBytes \(maxBytes)")
            // Every part carries the same envelope.
            let envelopes = try parts.map { part -> ParsedJSON in
                guard case .object(var fields) = try ParsedJSON(parsing: part) else { return .null }
                for name in ["part", "layers"] { fields[name] = nil }
                return .object(fields)
            }
            #expect(Set(envelopes).count == 1, "seed \(seed)")
        }
        #expect(totalParts > 100, "the sizes chosen should force splitting")
    }

    @Test func aMillionIdsSplitIntoMessagesOfAtMostOneMegabyte() throws {
        let ids = (0..<1_000_000).map { Int64($0) * 7 + 1_000_000 }
        let result = ResultMessage(
            requestId: "big", taskId: "big",
            layers: [ServiceLayerOutcome(url: "https://gis.example.org/arcgis/rest/services/P/FeatureServer/0", layerId: 0, name: "P",
                                 objectIdField: "OBJECTID", outcome: .succeeded(count: ids.count, complete: true,
                                                                              selection: .objectIds(ids)))],
            receivedAt: 0, finishedAt: 1, worker: "w")
        let parts = try result.split(maxBytes: 1_000_000)
        #expect((8...10).contains(parts.count))
        #expect(parts.allSatisfy { $0.count <= 1_000_000 })
        #expect(parts.dropLast().allSatisfy { $0.count > 999_000 }, "parts are filled")
        var joined: [Int64] = []
        for part in parts {
            guard case .array(let items)? = try ParsedJSON(parsing: part)["layers"],
                case .array(let slice)? = items.first?["objectIds"]
            else { throw ContractTestFailure("a part without ids") }
            joined += slice.map { if case .number(let n) = $0 { Int64(n) } else { -1 } }
        }
        #expect(joined == ids)
    }

    @Test func aFeatureLargerThanAMessageFailsTheResult() throws {
        let big = Array(#"{"type":"Feature","id":42,"geometry":null,"properties":{"p":"\#(String(repeating: "y", count: 5_000))"}}"#.utf8)
        let small = Array(#"{"type":"Feature","id":41,"geometry":null,"properties":{}}"#.utf8)
        let url = "https://gis.example.org/arcgis/rest/services/P/FeatureServer/0"
        let result = ResultMessage(
            requestId: "r", taskId: "t",
            layers: [ServiceLayerOutcome(url: url, outcome: .succeeded(count: 2, complete: true,
                                                                selection: .features(GeoJSONFeatureList(encoded: [(41, small), (42, big)]))))],
            receivedAt: 0, finishedAt: 0, worker: "w")
        #expect(try result.split(maxBytes: 10_000).count == 1)
        do {
            _ = try result.split(maxBytes: 4_000)
            Issue.record("a 5 KB feature was split into 4 KB messages")
        } catch {
            #expect(error.code == .resultTooLarge)
            #expect(error.message.hasPrefix("feature 42 of \(url) takes "))
            #expect(error.details?["objectId"] == .number(42))
            #expect(error.details?["limit"] == .number(4_000))
        }
    }

    @Test func layersWithoutItemsStayWhole() throws {
        let layers = (0..<30).map { index in
            ServiceLayerOutcome(url: "https://gis.example.org/arcgis/rest/services/S/MapServer/\(index)", layerId: index,
                        name: "Layer \(index)", objectIdField: "objectid",
                        outcome: .succeeded(count: index * 10, complete: true, selection: .countOnly))
        }
        let result = ResultMessage(requestId: "r", taskId: "t", layers: layers, receivedAt: 0, finishedAt: 0, worker: "w")
        let parts = try result.split(maxBytes: 1_000)
        #expect(parts.count > 3)
        #expect(try Self.reassemble(parts) == (try ParsedJSON(parsing: result.encoded())))
    }

    @Test func duplicateLayerURLsAreRefused() {
        let url = "https://gis.example.org/arcgis/rest/services/S/MapServer/0"
        let layer = ServiceLayerOutcome(url: url, outcome: .succeeded(count: 0, complete: true, selection: .countOnly))
        let result = ResultMessage(requestId: "r", taskId: "t", layers: [layer, layer], receivedAt: 0, finishedAt: 0, worker: "w")
        #expect(throws: ContractError.self) { try result.split(maxBytes: 1_000_000) }
    }

    @Test func aLimitSmallerThanTheEnvelopeFails() {
        let result = ResultMessage(requestId: "r", taskId: "t", layers: [], receivedAt: 0, finishedAt: 0, worker: "w")
        #expect(throws: ContractError.self) { try result.split(maxBytes: 20) }
    }
}
