import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Testing

@testable import QueryWorker
import WorkerTestSupport

/// The related-records, attachments and relationship-catalog examples are what the encoder writes for the
/// same outcomes: the examples document the worker, not a wish.
@Suite struct ContractRelatedExampleTests {
    static let service = "https://gis.example.org/arcgis/rest/services/Hydrants/FeatureServer"
    static let hydrants = "\(service)/0"

    static func message(
        _ requestId: String, finishedAfter: Int64, count: Int, selection: LayerSelection, aggregatedBy: ComputationSite?,
        orderedBy: ComputationSite? = nil
    ) throws -> ResultMessage {
        let received = try ContractEncodingTests.ms("2025-06-01T12:00:00.000Z")
        let answer = ServiceLayerResult(
            url: hydrants, layerId: 0, name: "Hydrants", objectIdField: "OBJECTID", count: count, isComplete: true,
            selection: selection, aggregatedBy: aggregatedBy, orderedBy: orderedBy)
        return ResultMessage(
            requestId: requestId, taskId: "hydrant-panel", layers: [ServiceLayerOutcome(url: hydrants, result: .success(answer))],
            receivedAt: received, finishedAt: received + finishedAfter, worker: "query-worker-7d9f/1")
    }

    static func record(_ inspectedOn: Int64, _ result: String, _ inspector: String?) -> [UInt8] {
        let name = inspector.map { "\"\($0)\"" } ?? "null"
        return Array(#"{"attributes":{"InspectedOn":\#(inspectedOn),"Result":"\#(result)","Inspector":\#(name)}}"#.utf8)
    }

    @Test func relatedResultMatchesItsExample() throws {
        let groups = [
            RelatedRecordGroup(
                objectId: 12, records: [Self.record(1_746_057_600_000, "Fail", "J. Ortiz"), Self.record(1_714_521_600_000, "Leak", "A. Chen")],
                count: 2),
            RelatedRecordGroup(objectId: 31, records: [Self.record(1_743_465_600_000, "Fail", nil)], count: 1),
        ]
        let message = try Self.message(
            "hydrant-inspections-1", finishedAfter: 410, count: 3,
            selection: .related(RelatedSelection(relatedTable: "\(Self.service)/1", groups: groups)), aggregatedBy: .server,
            orderedBy: .server)
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-related.json"))
    }

    static func attachment(_ objectId: Int64, _ id: Int64, _ name: String, _ type: String, _ size: Int64, _ keywords: String = "") -> AttachmentInfo {
        AttachmentInfo(
            id: id, name: name, contentType: type, size: size, keywords: keywords, url: "\(hydrants)/\(objectId)/attachments/\(id)")
    }

    @Test func attachmentsResultMatchesItsExample() throws {
        let groups = [
            AttachmentGroup(objectId: 12, attachments: [
                Self.attachment(12, 1, "front.jpg", "image/jpeg", 48_213),
                Self.attachment(12, 4, "inspection-2025.pdf", "application/pdf", 210_077, "inspection"),
            ]),
            AttachmentGroup(objectId: 31, attachments: [Self.attachment(31, 7, "valve.png", "image/png", 90_412)]),
        ]
        let message = try Self.message(
            "hydrant-photos-1", finishedAfter: 180, count: 3, selection: .attachments(groups), aggregatedBy: .server)
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-attachments.json"))
    }

    @Test func catalogWithRelationshipsMatchesItsExample() throws {
        let joined = { (relatedTableId: Int, role: String) in
            LayerRelationship(
                id: 0, name: "Hydrant_Inspections", relatedTableId: relatedTableId, cardinality: "esriRelCardinalityOneToMany",
                role: role, keyField: "HydrantID")
        }
        var hydrants = CatalogEntry(id: "0", title: "Hydrants", url: Self.hydrants)
        hydrants.geometryType = "esriGeometryPoint"
        hydrants.isQueryable = true
        hydrants.supportsPagination = true
        hydrants.relationships = [joined(1, "esriRelRoleOrigin")]
        hydrants.hasAttachments = true
        var inspections = CatalogEntry(id: "1", title: "Inspections", url: "\(Self.service)/1")
        inspections.isQueryable = true
        inspections.supportsPagination = true
        inspections.relationships = [joined(0, "esriRelRoleDestination")]
        inspections.hasAttachments = false
        let message = try ContractOGCEncodingTests.message(
            "browse-hydrants-1",
            [ServiceLayerOutcome(url: Self.service, outcome: .succeeded(count: 2, complete: true, selection: .catalog([hydrants, inspections])))],
            received: "2025-06-01T12:00:00.000Z", finished: "2025-06-01T12:00:00.090Z")
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-catalog-relationships.json"))
    }

    /// Entries without relationships or an attachments flag (OGC collections, older ArcGIS servers) carry
    /// neither member.
    @Test func catalogEntriesOmitWhatTheyLack() throws {
        var writer = JSONWriter(capacity: 64)
        writer.catalogEntry(CatalogEntry(id: "0"))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"id":"0"}"#)
    }
}
