import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// Related records and attachments in results larger than a message: groups are split by records (or
/// attachments), a group continuing in the next part under the same `objectId`, and the README's reassembly
/// gives back exactly the unsplit result.
@Suite struct ContractGroupSplitTests {
    static let url = "https://gis.example.org/arcgis/rest/services/P/FeatureServer/0"

    static func record(_ id: Int64, padding: Int) -> [UInt8] {
        Array(#"{"attributes":{"OBJECTID":\#(id),"note":"\#(String(repeating: "n", count: padding))"}}"#.utf8)
    }

    static func attachment(_ id: Int64, padding: Int) -> AttachmentInfo {
        AttachmentInfo(
            id: id, name: "photo-\(id)-\(String(repeating: "p", count: padding)).jpg", contentType: "image/jpeg",
            size: 1_000 + id, keywords: "", url: "\(url)/\(id)/attachments/\(id)")
    }

    static func related(_ groups: [RelatedRecordGroup], by site: ComputationSite? = .server) -> ServiceLayerOutcome {
        let total = groups.reduce(0) { $0 + $1.count }
        return ServiceLayerOutcome(url: url, result: .success(ServiceLayerResult(
            url: url, layerId: 0, name: "P", objectIdField: "OBJECTID", count: total, isComplete: true,
            selection: .related(RelatedSelection(relatedTable: String(url.dropLast()) + "1", groups: groups)), aggregatedBy: site)))
    }

    static func firstLayer(_ message: [UInt8]) throws -> ParsedJSON? {
        guard case .array(let layers)? = try ParsedJSON(parsing: message)["layers"] else { return nil }
        return layers.first
    }

    static func randomResult(_ random: inout SplitMix64) -> ResultMessage {
        var layers: [ServiceLayerOutcome] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let url = "https://gis.example.org/arcgis/rest/services/S\(index)/FeatureServer/0"
            var objectId = Int64.random(in: 1...100, using: &random)
            let groupCount = Int.random(in: 0...[3, 40][Int.random(in: 0...1, using: &random)], using: &random)
            let selection: LayerSelection
            var total = 0
            if Bool.random(using: &random) {
                var groups: [RelatedRecordGroup] = []
                for _ in 0..<groupCount {
                    objectId += Int64.random(in: 1...1_000, using: &random)
                    let records = (0..<Int.random(in: 0...[2, 60][Int.random(in: 0...1, using: &random)], using: &random)).map {
                        record(Int64($0), padding: Int.random(in: 0...800, using: &random))
                    }
                    let count = records.count + (records.isEmpty || Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : 0)
                    total += count
                    groups.append(RelatedRecordGroup(objectId: objectId, records: records, count: count))
                }
                selection = .related(RelatedSelection(relatedTable: String(url.dropLast()) + "1", groups: groups))
            } else {
                var groups: [AttachmentGroup] = []
                for _ in 0..<groupCount {
                    objectId += Int64.random(in: 1...1_000, using: &random)
                    let attachments = (0..<Int.random(in: 1...30, using: &random)).map {
                        attachment(Int64($0), padding: Int.random(in: 0...400, using: &random))
                    }
                    total += attachments.count
                    groups.append(AttachmentGroup(objectId: objectId, attachments: attachments))
                }
                selection = .attachments(groups)
            }
            layers.append(ServiceLayerOutcome(url: url, result: .success(ServiceLayerResult(
                url: url, layerId: 0, name: "S\(index)", objectIdField: "OBJECTID", count: total, isComplete: true,
                selection: selection, aggregatedBy: .server))))
        }
        return ResultMessage(requestId: "r", taskId: "t", layers: layers, receivedAt: 0, finishedAt: 5, worker: "w")
    }

    @Test func randomGroupsSplitWithinTheLimitAndReassembleExactly() throws {
        var totalParts = 0
        for seed in UInt64(1)...60 {
            var random = SplitMix64(seed: seed)
            let result = Self.randomResult(&random)
            let whole = try result.encoded()
            let maxBytes = Int.random(in: 2_000...max(2_000, whole.count + 200), using: &random)
            let parts = try result.split(maxBytes: maxBytes)
            totalParts += parts.count
            for part in parts { #expect(part.count <= maxBytes, "seed \(seed): a part of \(part.count) > \(maxBytes)") }
            if whole.count <= maxBytes { #expect(parts == [whole], "seed \(seed)") }
            #expect(try ContractSplitTests.reassemble(parts) == (try ParsedJSON(parsing: whole)), "seed \(seed), maxBytes \(maxBytes)")
        }
        #expect(totalParts > 60, "the sizes chosen should force splitting")
    }

    /// One origin with more related records than fit in a message: its group continues in the next parts with
    /// the same objectId and count, each part a valid result.
    @Test func aGroupLargerThanAPartContinuesUnderItsObjectId() throws {
        let records = (0..<50).map { Self.record($0, padding: 200) }
        let result = ResultMessage(
            requestId: "r", taskId: "t", layers: [Self.related([RelatedRecordGroup(objectId: 7, records: records, count: 55)])],
            receivedAt: 0, finishedAt: 0, worker: "w")
        let parts = try result.split(maxBytes: 3_000)
        #expect(parts.count > 3)
        var joined: [ParsedJSON] = []
        for part in parts {
            #expect(part.count <= 3_000)
            let entry = try Self.firstLayer(part)
            #expect(entry?["relatedBy"] == .string("server"))
            #expect(entry?["relatedTable"] == .string(String(Self.url.dropLast()) + "1"))
            guard case .array(let groups)? = entry?["related"], groups.count == 1, case .array(let slice)? = groups[0]["records"] else {
                throw ContractTestFailure("a part without exactly one group")
            }
            #expect(groups[0]["objectId"] == .number(7) && groups[0]["count"] == .number(55))
            joined += slice
        }
        #expect(joined == (try records.map { try ParsedJSON(parsing: $0) }))
        #expect(try ContractSplitTests.reassemble(parts) == (try ParsedJSON(parsing: result.encoded())))
    }

    @Test func aRecordLargerThanAMessageFailsTheResult() throws {
        let result = ResultMessage(
            requestId: "r", taskId: "t",
            layers: [Self.related([RelatedRecordGroup(objectId: 9, records: [Self.record(1, padding: 5_000)], count: 1)])],
            receivedAt: 0, finishedAt: 0, worker: "w")
        do {
            _ = try result.split(maxBytes: 4_000)
            Issue.record("a 5 KB record was split into 4 KB messages")
        } catch {
            #expect(error.code == .resultTooLarge)
            #expect(error.message.hasPrefix("a related record of feature 9 of \(Self.url) takes "), "\(error.message)")
            #expect(error.details?["objectId"] == .number(9))
        }
    }

    /// An origin whose records were all cut (`count` without records) still appears, as one item.
    @Test func aGroupWithoutRecordsIsWritten() throws {
        let result = ResultMessage(
            requestId: "r", taskId: "t",
            layers: [Self.related([RelatedRecordGroup(objectId: 3, records: [], count: 4),
                                   RelatedRecordGroup(objectId: 5, records: [Self.record(1, padding: 0)], count: 1)])],
            receivedAt: 0, finishedAt: 0, worker: "w")
        let entry = try Self.firstLayer(result.encoded())
        #expect(entry?["related"] == (try ParsedJSON(parsing: Array(
            #"[{"objectId":3,"records":[],"count":4},{"objectId":5,"records":[{"attributes":{"OBJECTID":1,"note":""}}],"count":1}]"#.utf8))))
    }
}
