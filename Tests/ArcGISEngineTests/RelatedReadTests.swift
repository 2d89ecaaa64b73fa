import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

@testable import ArcGISEngine

/// The related read's state machine without I/O: which requests it asks in which order, how a cut answer
/// continues (next page, halves, the table by key), how records are kept once, ordered and cut, and how the
/// relationship is resolved.
@Suite("Related records: the read's steps, without I/O")
struct RelatedReadTests {
    static let origin: LayerMetadata = {
        var layer = LayerMetadata(
            url: "http://h/arcgis/rest/services/LA/FeatureServer/0", id: 0, name: "Parcels", type: "Feature Layer",
            geometryType: "esriGeometryPolygon", objectIdField: "OBJECTID",
            fields: [LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "APN", type: .string)],
            maxRecordCount: 2000, capabilities: ["Query"], supportsPagination: true, supportedQueryFormats: ["JSON"],
            supportsStatistics: true, useStandardizedQueries: true, spatialReference: SpatialReference(wkid: 3857))
        layer.relationships = [
            LayerRelationship(
                id: 4, name: "Parcel_Assessments", relatedTableId: 2, cardinality: "esriRelCardinalityOneToMany",
                role: "esriRelRoleOrigin", keyField: "APN"),
            LayerRelationship(
                id: 9, name: "Parcel_Owner", relatedTableId: 3, cardinality: "esriRelCardinalityOneToOne",
                role: "esriRelRoleOrigin", keyField: "APN"),
        ]
        return layer
    }()

    static let table: LayerMetadata = {
        var table = LayerMetadata(
            url: "http://h/arcgis/rest/services/LA/FeatureServer/2", id: 2, name: "Parcel_Assessments", type: "Table",
            geometryType: nil, objectIdField: "OBJECTID",
            fields: [
                LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "ParcelAPN", type: .string),
                LayerField(name: "TaxYear", type: .smallInteger), LayerField(name: "AssessedValue", type: .integer),
            ],
            maxRecordCount: 1000, capabilities: ["Query"], supportsPagination: true, supportedQueryFormats: ["JSON"],
            supportsStatistics: true, useStandardizedQueries: true, spatialReference: nil)
        table.relationships = [
            LayerRelationship(
                id: 4, name: "Parcel_Assessments", relatedTableId: 0, cardinality: "esriRelCardinalityOneToMany",
                role: "esriRelRoleDestination", keyField: "ParcelAPN")
        ]
        return table
    }()

    static func target(orderBy: [OrderTerm] = [], outFields: [String] = ["*"]) throws -> RelatedTarget {
        let relationship = try RelatedTarget.relationship(.name("parcel_assessments"), of: origin)
        return try RelatedTarget(
            RelatedQuery(relationship: .name("Parcel_Assessments"), outFields: outFields, orderBy: orderBy),
            relationship: relationship, origin: origin, table: table, returnGeometry: true)
    }

    static func row(_ id: Int64, year: Int, apn: String = "A") -> RelatedRow {
        RelatedRow(
            attributes: ["OBJECTID": .number(Double(id)), "ParcelAPN": .string(apn), "TaxYear": .number(Double(year)),
                         "AssessedValue": .null],
            geometry: nil)
    }

    /// A `queryRelatedRecords` answer as the read takes it: encoded for `target` (the read's own).
    static func page(_ groups: [(Int64, [RelatedRow])], exceeded: Bool, target: RelatedTarget? = nil) throws -> EncodedRelatedPage {
        let page = RelatedRecordsPage(groups: groups.map { (objectId: $0.0, rows: $0.1) }, exceededTransferLimit: exceeded, spatialReference: nil)
        return try EncodedRelatedPage(page, encoder: RelatedRecordEncoder(target: try target ?? Self.target()))
    }

    @Test("a name resolves ignoring case, an id as it is; an unknown one lists what the layer offers")
    func resolution() throws {
        #expect(try RelatedTarget.relationship(.name("PARCEL_OWNER"), of: Self.origin).id == 9)
        #expect(try RelatedTarget.relationship(.id(4), of: Self.origin).name == "Parcel_Assessments")
        let error = #expect(throws: FeatureServiceError.self) { try RelatedTarget.relationship(.id(0), of: Self.origin) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("\"Parcel_Assessments\" (id 4)") == true)
        #expect(error?.message.contains("\"Parcel_Owner\" (id 9)") == true)
    }

    @Test("the target reads the table's key, keeps the object id among the output fields and asks for the order's")
    func targetFields() throws {
        let target = try Self.target(orderBy: [OrderTerm(field: "TaxYear", descending: true)], outFields: ["AssessedValue"])
        #expect(target.relatedKeyField == "ParcelAPN")
        #expect(target.outputFields == ["OBJECTID", "AssessedValue"])
        #expect(target.requestedFields == ["OBJECTID", "AssessedValue", "TaxYear"])
        #expect(!target.returnsGeometry, "a table has no geometry, whatever the query asks")
        let error = #expect(throws: FeatureServiceError.self) {
            try RelatedTarget(
                RelatedQuery(relationship: .id(4), whereClause: try WhereClause("Nope = 1")), relationship: Self.origin.relationships[0],
                origin: Self.origin, table: Self.table, returnGeometry: false)
        }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("FeatureServer/2") == true, "the related where clause is checked against the related table")
    }

    @Test("chunks are asked in order; where the service counts, their counts first")
    func chunksInOrder() throws {
        for counts in [false, true] {
            var read = RelatedRead(origins: Array(1...5), chunkSize: 2, paginates: false, counts: counts, target: try Self.target())
            var steps: [String] = []
            while let step = read.next() {
                switch step {
                case .group(let chunk, let origins, let offset): steps.append("group \(chunk) \(origins) \(offset)")
                case .counts(let chunk, let origins): steps.append("counts \(chunk) \(origins)")
                default: steps.append("other")
                }
            }
            let kind = counts ? "counts" : "group"
            let suffix = counts ? "" : " 0"
            #expect(steps == ["\(kind) 0 [1, 2]\(suffix)", "\(kind) 1 [3, 4]\(suffix)", "\(kind) 2 [5]\(suffix)"])
        }
    }

    @Test("counted origins are grouped to fit the transfer limit; none asked without records; one above it read by key")
    func plannedFromCounts() throws {
        var read = RelatedRead(origins: [1, 2, 3, 4, 5, 6], chunkSize: 6, paginates: false, counts: true, target: try Self.target())
        let counts = try read.take()
        _ = read.record(counts, .counts([1: 600, 2: 300, 3: 200, 4: 1500, 6: 1]))
        var steps: [String] = []
        while let step = read.next() {
            switch step {
            case .group(_, let origins, _): steps.append("group \(origins)")
            case .keyIds(_, let origin): steps.append("key \(origin)")
            default: steps.append("other")
            }
        }
        #expect(steps == ["group [1, 2]", "key 4", "group [3, 6]"], "3 and 6 share a request: 201 records fit")
        #expect(read.usedTableQuery)
        var paging = RelatedRead(origins: [4], chunkSize: 6, paginates: true, counts: true, target: try Self.target())
        _ = paging.record(try paging.take(), .counts([4: 1500]))
        guard case .group(_, [4], 0)? = paging.next() else { Issue.record("a paging service pages the big origin"); return }
    }

    @Test("a cut answer is continued: by offset where the service pages, in halves where not, by key for one origin")
    func cutAnswers() throws {
        var paging = RelatedRead(origins: [1, 2, 3, 4], chunkSize: 4, paginates: true, counts: false, target: try Self.target())
        let first = try paging.take()
        _ = paging.record(first, .group(try Self.page([(1, [Self.row(10, year: 2020), Self.row(11, year: 2021)])], exceeded: true)))
        guard case .group(_, let origins, let offset)? = paging.next() else { Issue.record("a next page"); return }
        #expect(origins == [1, 2, 3, 4] && offset == 2)

        var splitting = RelatedRead(origins: [1, 2, 3, 4], chunkSize: 4, paginates: false, counts: false, target: try Self.target())
        let whole = try splitting.take()
        _ = splitting.record(whole, .group(try Self.page([(1, [Self.row(10, year: 2020)])], exceeded: true)))
        guard case .group(_, let low, 0)? = splitting.next() else { Issue.record("the first half"); return }
        #expect(low == [1, 2])
        _ = splitting.record(.group(chunk: 0, origins: [1, 2], offset: 0), .group(try Self.page([(1, [Self.row(10, year: 2020)])], exceeded: true)))
        guard case .group(_, let one, 0)? = splitting.next() else { Issue.record("a quarter"); return }
        #expect(one == [1])
        _ = splitting.record(.group(chunk: 0, origins: [1], offset: 0), .group(try Self.page([(1, [Self.row(10, year: 2020)])], exceeded: true)))
        guard case .keyIds(_, 1)? = splitting.next() else { Issue.record("origin 1 read by key"); return }
        #expect(splitting.usedTableQuery)
        #expect(splitting.collector.count == 1, "the record seen in three answers is held once")
        #expect(splitting.collector.duplicates == 2)
    }

    @Test("a paging service that repeats its first page is split instead of paged forever")
    func ignoredOffset() throws {
        var read = RelatedRead(origins: [1, 2], chunkSize: 2, paginates: true, counts: false, target: try Self.target())
        let step = try read.take()
        let page = try Self.page([(1, [Self.row(10, year: 2020)])], exceeded: true)
        _ = read.record(step, .group(page))
        let next = try read.take()
        _ = read.record(next, .group(page))
        guard case .group(_, let half, 0)? = read.next() else { Issue.record("halves after a page with nothing new"); return }
        #expect(half == [1])
    }

    @Test("groups in origin order, records in the related order with ties by object id, cut at the limit")
    func finishOrdersAndCuts() throws {
        let target = try Self.target(orderBy: [OrderTerm(field: "TaxYear", descending: true)])
        var read = RelatedRead(origins: [1, 2], chunkSize: 2, paginates: false, counts: false, target: target)
        let step = try read.take()
        _ = read.record(
            step,
            .group(try Self.page([(2, [Self.row(30, year: 2019)]), (1, [Self.row(12, year: 2020), Self.row(11, year: 2021), Self.row(10, year: 2020)])], exceeded: false, target: target)))
        #expect(!read.collector.arrivedOrdered, "2020 before 2021 descending is out of order")
        let (groups, cut) = read.collector.finish(limit: 3)
        #expect(groups.map(\.objectId) == [1])
        let ids = try groups[0].records.map { record in
            try #require(ParsedJSON(parsing: String(decoding: record, as: UTF8.self))["attributes"]?["OBJECTID"]?.integerValue)
        }
        #expect(ids == [11, 10, 12])
        #expect(groups[0].count == 3)
        #expect(cut, "origin 2's record is past the limit")
        let (all, allCut) = read.collector.finish(limit: nil)
        #expect(all.map(\.objectId) == [1, 2] && !allCut)
    }

    @Test("the service's counts check what arrived, origin by origin")
    func countsCheck() throws {
        var read = RelatedRead(origins: [1, 2], chunkSize: 2, paginates: false, counts: true, target: try Self.target())
        _ = read.record(try read.take(), .counts([1: 2, 2: 1]))
        let group = try read.take()
        _ = read.record(group, .group(try Self.page([(1, [Self.row(10, year: 2020), Self.row(11, year: 2021)]), (2, [])], exceeded: false)))
        #expect(read.expectedTotal == 3)
        #expect(read.countMismatch() == 1, "origin 2 was counted 1 and arrived 0")
    }

    @Test("a finished prefix past the limit stops the read; chunks finish only when all their steps have")
    func progress() {
        var progress = ChunkProgress(chunks: 3, steps: 1)
        progress.finished(1, added: 50)
        #expect(!progress.passes(10), "chunk 0 is not finished, so chunk 1 is not in the prefix")
        progress.started(0)
        progress.finished(0, added: 5)
        #expect(!progress.passes(10), "chunk 0 queued a second step")
        progress.finished(0, added: 0)
        #expect(progress.prefixRecords == 55)
        #expect(progress.passes(10) && !progress.passes(55) && !progress.passes(nil))
    }

    @Test("records carry the output fields in the table's order, and a record without an object id is refused")
    func encoding() throws {
        let encoder = RelatedRecordEncoder(target: try Self.target(outFields: ["TaxYear"]))
        let record = try encoder.record(Self.row(7, year: 2001), spatialReference: nil)
        #expect(String(decoding: record.json, as: UTF8.self) == #"{"attributes":{"OBJECTID":7,"TaxYear":2001}}"#)
        let error = #expect(throws: FeatureServiceError.self) {
            try encoder.record(RelatedRow(attributes: ["TaxYear": .number(2001)], geometry: nil), spatialReference: nil)
        }
        #expect(error?.code == .missingObjectID)
    }

    @Test("key literals: strings quoted with quotes doubled, numbers as they are, null none")
    func literals() {
        #expect(RelatedRequests.literal(.string("O'Neil")) == "'O''Neil'")
        #expect(RelatedRequests.literal(.number(42)) == "42")
        #expect(RelatedRequests.literal(.null) == nil)
    }
}

/// The attachments read's state machine and URLs, without I/O.
@Suite("Attachments: the read's steps and URLs, without I/O")
struct AttachmentReadTests {
    static func row(_ id: Int64, url: String? = nil) -> AttachmentRow {
        AttachmentRow(id: id, name: "a\(id).jpg", contentType: "image/jpeg", size: 100, keywords: "", url: url)
    }

    @Test("a cut queryAttachments answer is asked in halves, then one feature from its own resource")
    func cutAnswers() throws {
        var read = AttachmentRead(features: [5, 6], chunkSize: 100, viaQuery: true, layerURL: "http://h/L/FeatureServer/0")
        let first = try read.take()
        _ = read.record(first, .page(AttachmentsPage(groups: [(objectId: 5, rows: [Self.row(1)])], exceededTransferLimit: true)))
        let half = try read.take()
        guard case .query(_, [5]) = half else { Issue.record("the first half, got \(half)"); return }
        _ = read.record(half, .page(AttachmentsPage(groups: [(objectId: 5, rows: [Self.row(1)])], exceededTransferLimit: true)))
        guard case .feature(_, 5)? = read.next() else { Issue.record("feature 5 from its resource"); return }
        #expect(read.readFeatures && read.count == 1)
    }

    @Test("without queryAttachments every feature is read from its own resource")
    func perFeature() {
        var read = AttachmentRead(features: [3, 4], chunkSize: 100, viaQuery: false, layerURL: "http://h/L/FeatureServer/0")
        var objectIds: [Int64] = []
        while case .feature(_, let id)? = read.next() { objectIds.append(id) }
        #expect(objectIds == [3, 4] && read.readFeatures)
    }

    @Test("groups by feature, attachments by id, cut at the limit")
    func finish() {
        var read = AttachmentRead(features: [1, 2], chunkSize: 100, viaQuery: true, layerURL: "http://h/L/FeatureServer/0")
        _ = read.record(
            .query(chunk: 0, features: [1, 2]),
            .page(AttachmentsPage(groups: [(objectId: 2, rows: [Self.row(9)]), (objectId: 1, rows: [Self.row(4), Self.row(3)])], exceededTransferLimit: false)))
        let (all, cut) = read.finish(limit: nil)
        #expect(all.map(\.objectId) == [1, 2] && all[0].attachments.map(\.id) == [3, 4] && !cut)
        let (some, someCut) = read.finish(limit: 2)
        #expect(some.map(\.objectId) == [1] && someCut)
        #expect(all[1].attachments[0].url == "http://h/L/FeatureServer/0/2/attachments/9")
    }

    @Test("a token in a service's attachment URL never reaches a result; other parameters stay")
    func urls() {
        #expect(AttachmentURL.clean("https://s/L/FeatureServer/0/1/attachments/2?token=SECRET", layer: "x", feature: 1, attachment: 2)
            == "https://s/L/FeatureServer/0/1/attachments/2")
        #expect(AttachmentURL.clean("https://s/a?w=1&TOKEN=S&x=2", layer: "x", feature: 1, attachment: 2) == "https://s/a?w=1&x=2")
        #expect(AttachmentURL.clean("relative/1", layer: "http://h/L/0", feature: 1, attachment: 2) == "http://h/L/0/1/attachments/2")
    }
}

/// A step the test expected and the read did not queue.
private struct NoStep: Error {}

extension RelatedRead {
    /// The next step, or a thrown failure when none is queued.
    fileprivate mutating func take() throws -> RelatedStep {
        guard let step = next() else { throw NoStep() }
        return step
    }
}

extension AttachmentRead {
    fileprivate mutating func take() throws -> AttachmentStep {
        guard let step = next() else { throw NoStep() }
        return step
    }
}
