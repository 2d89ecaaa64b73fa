import ArgumentParser
import FeatureQuerySupport
import Foundation
import QueryLanguage
import QueryWorker
import RequestContract

/// A request as `query` and `demo` build it: the fields of the contract's request (docs/contract/README.md),
/// encoded as its JSON and checked with the worker's own decoder before anything is published.
struct RequestDraft: Sendable, Encodable {
    /// An ArcGIS layer or service (`layers`: sublayer ids), or an OGC landing page (`collection`: the
    /// collection; none in a catalog request, to list them all).
    struct Target: Sendable, Encodable {
        var type = "arcgis"
        var url: String
        var layers: [Int]?
        var collection: String?
    }

    struct Reference: Sendable, Encodable { var wkid: Int }

    struct Extent: Sendable, Encodable {
        var xmin: Double
        var ymin: Double
        var xmax: Double
        var ymax: Double
        var spatialReference: Reference
    }

    struct Query: Sendable, Encodable {
        var `where`: String?
        var namedWhere: String?
        var extent: Extent?
        var geometry: EncodableJSON?
        var spatialRelationship: String?
        var outFields: [String]?
        var returnGeometry: Bool?
        var outSpatialReference: Reference?
        var maxFeatures: Int?
        var result: String?
        var objectIds: [ObjectId]?
        var time: Time?
        var orderBy: [Order]?
        var statistics: [Statistic]?
        var groupBy: [String]?
        var relationship: Relationship?
        var relatedWhere: String?
        var relatedOutFields: [String]?
        var relatedOrderBy: [Order]?
    }

    var requestId: String
    var taskId: String?
    var deadline: String?
    var timeoutMs: Int?
    var targets: [Target]
    var query: Query
    var credential: String?

    /// The message key: the taskId, or the requestId when there is none (the contract's keying rule, which
    /// puts a task's requests on one partition).
    var key: String { taskId ?? requestId }

    static func extent(_ argument: ExtentArgument) -> Extent {
        Extent(
            xmin: argument.xmin, ymin: argument.ymin, xmax: argument.xmax, ymax: argument.ymax,
            spatialReference: .init(wkid: argument.wkid))
    }

    /// A cancel message for `taskId` (docs/contract/README.md, "Cancel"): keyed by the taskId like the task's
    /// requests, so it reaches the worker running them, after them.
    static func cancel(taskId: String) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        struct Cancel: Encodable {
            var taskId: String
            var cancel = true
        }
        return Array(try encoder.encode(Cancel(taskId: taskId)))
    }

    /// The JSON text of the request.
    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    /// The JSON, checked as a worker with `catalog` would read it. A request the worker would reject is a
    /// usage error here, with the worker's own message (`query.where: ...`), except what depends on how
    /// the worker is configured: its named queries and whether it takes free where clauses are `warnings`,
    /// since the worker the request reaches may be configured otherwise, and its credentials are not checked
    /// at all (this machine does not have the worker's credentials file).
    func checkedJSON(catalog: NamedQueryCatalog) throws -> (json: [UInt8], warnings: [String]) {
        let bytes = try json()
        let now = WallClock.nowMilliseconds()
        switch RequestDecoder(namedQueries: catalog).decode(bytes, key: Array(key.utf8), receivedAt: now) {
        case .query, .cancel:
            return (bytes, [])
        case .rejected(let rejection) where [.unknownNamedQuery, .freeClausesDisabled].contains(rejection.code):
            return (bytes, ["\(rejection.message) (checked against this machine's settings; the worker decides)"])
        case .rejected(let rejection):
            throw CommandFailure("a worker would reject this request (\(rejection.code)): \(rejection.message)")
        }
    }
}

/// A JSON value as `JSONEncoder` writes it: the geometry of `--geometry`, passed through as it was typed.
struct EncodableJSON: Sendable, Encodable {
    var value: ParsedJSON

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items.map { EncodableJSON(value: $0) })
        case .object(let members): try container.encode(members.mapValues { EncodableJSON(value: $0) })
        }
    }
}
