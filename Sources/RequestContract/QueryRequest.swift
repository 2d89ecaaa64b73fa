import FeatureGeometry
package import FeatureService
import QueryLanguage

/// A feature-query request that passed every check of the contract: what the worker runs.
///
/// Defaults are applied (``taskId`` is the request id when the message gave none, outFields `["*"]`, ...),
/// the where clause is parsed (or the named query resolved), the geometry decoded and the deadline made
/// absolute, so nothing downstream reads the message again.
package struct QueryRequest: Sendable, Hashable {
    /// The request's members, in one immutable box: a request is handed whole from the decoder to the state
    /// machine, its registry, the run and the outcome, some ten copies per request, and a copy of the box is one
    /// retain where a copy of the members was one per string and array in them (some twenty). A change makes a
    /// new box; requests change only while they are made (the worker sets a missing deadline once).
    private var box: Box

    /// Names this request in its outcome.
    package var requestId: String {
        get { box.members.requestId }
        set { change { $0.requestId = newValue } }
    }
    /// The supersession key: a newer request with this task id replaces this one (unless it asks the same).
    package var taskId: String {
        get { box.members.taskId }
        set { change { $0.taskId = newValue } }
    }
    /// When the outcome stops being useful, in milliseconds since the epoch: the message's `deadline`, or
    /// `receivedAt + timeoutMs`; `nil` when the message set neither (the worker's own limit applies).
    package var deadline: Int64? {
        get { box.members.deadline }
        set { change { $0.deadline = newValue } }
    }
    /// When the worker received the message, in milliseconds since the epoch.
    package var receivedAt: Int64 {
        get { box.members.receivedAt }
        set { change { $0.receivedAt = newValue } }
    }
    /// The layers to query, 1 to `maxTargets` (at most 16) targets, in the message's order.
    package var targets: [QueryTarget] {
        get { box.members.targets }
        set { change { $0.targets = newValue } }
    }
    /// What to select and return.
    package var query: QuerySpec {
        get { box.members.query }
        set { change { $0.query = newValue } }
    }
    /// The operator's credential the request picked by name (checked: it exists and covers every target);
    /// `nil` applies whatever credential covers each target by scope.
    package var credential: String? {
        get { box.members.credential }
        set { change { $0.credential = newValue } }
    }
    /// Whether the asker wants progress events while the request runs (`progress: true`, since 1.2). Advisory:
    /// it changes what else is published, never the outcome. Part of the sharing fingerprint, so every run
    /// publishes progress exactly for the requests on it (see the contract's "Progress").
    package var progress: Bool {
        get { box.members.progress }
        set { change { $0.progress = newValue } }
    }
    /// Where the selection goes and in what form (`delivery`, `format`, `compression`, since 1.3).
    package var delivery: ResultDelivery {
        get { box.members.delivery }
        set { change { $0.delivery = newValue } }
    }
    /// How many targets the request has, for checks outside this module (the request fuzzer's oracle).
    package var targetCount: Int { box.members.targets.count }

    /// A request; ``RequestDecoder`` makes these from messages, tests and tools may build them directly.
    package init(
        requestId: String, taskId: String? = nil, deadline: Int64? = nil, receivedAt: Int64, targets: [QueryTarget],
        query: QuerySpec, credential: String? = nil, progress: Bool = false, delivery: ResultDelivery = .default
    ) {
        box = Box(Members(
            requestId: requestId, taskId: taskId ?? requestId, deadline: deadline, receivedAt: receivedAt,
            targets: targets, query: query, credential: credential, progress: progress, delivery: delivery))
    }

    /// The query for the feature-service seam, with the request's credential.
    package var serviceQuery: ServiceQuery {
        var query = box.members.query.serviceQuery
        query.credential = box.members.credential
        return query
    }

    /// The targets as the feature-service seam takes them, in order; the engine behind the seam picks the
    /// protocol by each target's kind.
    package var serviceTargets: [ServiceTarget] { box.members.targets.map(\.serviceTarget) }

    package static func == (lhs: QueryRequest, rhs: QueryRequest) -> Bool {
        lhs.box === rhs.box || lhs.box.members == rhs.box.members
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(box.members)
    }

    private mutating func change(_ body: (inout Members) -> Void) {
        var members = box.members
        body(&members)
        box = Box(members)
    }

    private struct Members: Sendable, Hashable {
        var requestId: String
        var taskId: String
        var deadline: Int64?
        var receivedAt: Int64
        var targets: [QueryTarget]
        var query: QuerySpec
        var credential: String?
        var progress: Bool
        var delivery: ResultDelivery
    }

    private final class Box: Sendable {
        let members: Members
        init(_ members: Members) { self.members = members }
    }
}

/// One entry of a request's `targets`.
package enum QueryTarget: Sendable, Hashable {
    /// An ArcGIS REST layer URL (`…/FeatureServer/0`), or a service URL (`…/MapServer`) with the sublayer ids
    /// to query (`nil`: every feature layer of the service). The URL has no query string or trailing slash.
    case arcgis(url: String, layers: [Int]?)
    /// An OGC API Features collection: the landing page URL and the collection id. The id is `nil` only in a
    /// `result: catalog` request, where the target means "browse the landing page" (every collection).
    case ogc(url: String, collection: String?)

    /// The target's URL.
    package var url: String {
        switch self {
        case .arcgis(let url, _), .ogc(let url, _): url
        }
    }

    /// The target for the feature-service seam: its kind, URL and layers (sublayer ids as text, or the
    /// collection id; `nil` for a whole service or landing page).
    package var serviceTarget: ServiceTarget {
        switch self {
        case .arcgis(let url, let layers): ServiceTarget(kind: .arcgis, url: url, layers: layers?.map(String.init))
        case .ogc(let url, let collection): ServiceTarget(kind: .ogc, url: url, layers: collection.map { [$0] })
        }
    }
}
