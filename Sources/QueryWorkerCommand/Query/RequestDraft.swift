import ArgumentParser
import FeatureQuerySupport
import Foundation
import QueryLanguage
import QueryWorker

/// A request as `query` and `demo` build it: the fields of the contract's request (docs/contract/README.md),
/// encoded as its JSON and checked with the worker's own decoder before anything is published.
struct RequestDraft: Sendable, Encodable {
    struct Target: Sendable, Encodable {
        var type = "arcgis"
        var url: String
        var layers: [Int]?
    }

    struct Extent: Sendable, Encodable {
        struct Reference: Sendable, Encodable { var wkid: Int }
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
        var result: String?
    }

    var requestId: String
    var taskId: String?
    var timeoutMs: Int?
    var targets: [Target]
    var query: Query

    /// The message key: the taskId, or the requestId when there is none (the contract's keying rule, which
    /// puts a task's requests on one partition).
    var key: String { taskId ?? requestId }

    static func extent(_ argument: ExtentArgument) -> Extent {
        Extent(
            xmin: argument.xmin, ymin: argument.ymin, xmax: argument.xmax, ymax: argument.ymax,
            spatialReference: .init(wkid: argument.wkid))
    }

    /// The JSON text of the request.
    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    /// The JSON, checked as a worker with `catalog` would read it. A request the worker would reject is a
    /// usage error here, with the worker's own message (`query.where: ...`), except what depends on how
    /// the worker is configured: its named queries and whether it takes free where clauses. Those are
    /// `warnings`, since the worker the request reaches may be configured otherwise.
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
