import EngineExecution
import FeatureService
import QueryLanguage

/// Gathers related records per origin as answers arrive, in any order and from any path (groups, pages,
/// split chunks, the related table's own query): a record seen twice for one origin is kept once, and what
/// is held is reserved from the request's budget. ``finish(limit:)`` puts groups in origin order and records
/// in the related order, and cuts at `maxFeatures`.
struct RelatedRecordCollector: Sendable {
    private var groups: [Int64: [HeldRelatedRecord]] = [:]
    private var seen: Set<Pair> = []
    /// Whether every origin's records arrived in the related order (each answer's run of a group checked):
    /// what decides `orderedBy: server`.
    private(set) var arrivedOrdered = true
    private(set) var duplicates = 0
    /// Records held over all origins.
    private(set) var count = 0
    private let order: AttributeOrder

    private struct Pair: Hashable {
        var origin: Int64
        var related: Int64
    }

    init(orderBy: [OrderTerm]) {
        order = AttributeOrder(orderBy)
    }

    /// What holding `records` takes from the budget: their JSON and a little bookkeeping each.
    static func bytes(of records: [HeldRelatedRecord]) -> Int {
        records.reduce(0) { $0 + $1.json.count + 16 }
    }

    /// Adds one answer's records of `origin`, in the answer's order (a record held already is counted as a
    /// duplicate and dropped).
    mutating func add(_ records: [HeldRelatedRecord], origin: Int64) {
        var previous: HeldRelatedRecord?
        for record in records {
            if let previous, order.compare(previous.key, id: previous.relatedId, record.key, id: record.relatedId) > 0 {
                arrivedOrdered = false
            }
            previous = record
            guard seen.insert(Pair(origin: origin, related: record.relatedId)).inserted else {
                duplicates += 1
                continue
            }
            groups[origin, default: []].append(record)
            count += 1
        }
    }

    /// Records held for `origin`.
    func count(of origin: Int64) -> Int { groups[origin]?.count ?? 0 }

    /// The origins with a record held.
    var origins: Dictionary<Int64, [HeldRelatedRecord]>.Keys { groups.keys }

    /// The groups in origin order, each in the related order (ties by related object id), holding at most
    /// `limit` records in all; and whether the limit cut them.
    func finish(limit: Int?) -> (groups: [RelatedRecordGroup], cut: Bool) {
        var remaining = limit ?? .max
        var result: [RelatedRecordGroup] = []
        var cut = false
        for origin in groups.keys.sorted() {
            guard var records = groups[origin], !records.isEmpty else { continue }
            guard remaining > 0 else {
                cut = true
                break
            }
            let order = order
            records.sort { order.compare($0.key, id: $0.relatedId, $1.key, id: $1.relatedId) < 0 }
            let total = records.count
            if records.count > remaining {
                records.removeLast(records.count - remaining)
                cut = true
            }
            remaining -= records.count
            result.append(RelatedRecordGroup(objectId: origin, records: records.map(\.json), count: total))
        }
        return (result, cut)
    }
}
