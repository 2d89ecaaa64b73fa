import FeatureGeometry
import FeatureQuerySupport
package import FeatureService
import QueryLanguage

/// A feature-query request that passed every check of the contract: what the worker runs.
///
/// Defaults are applied (``taskId`` is the request id when the message gave none, outFields `["*"]`, ...),
/// the where clause is parsed (or the named query resolved), the geometry decoded and the deadline made
/// absolute, so nothing downstream reads the message again.
package struct QueryRequest: Sendable, Hashable {
    /// The request's members, behind one reference (``SharedValue``): a request is handed whole from the decoder to
    /// the state machine, its registry, the run and the outcome, some ten copies per request, and such a copy is one
    /// retain where a copy of the members was one per string and array in them (some twenty). Requests change only
    /// while they are made.
    private var members: SharedValue<Members>

    /// Names this request in its outcome.
    package var requestId: String {
        get { members.value.requestId }
        set { members.change { $0.requestId = newValue } }
    }
    /// The supersession key: a newer request with this task id replaces this one (unless it asks the same).
    package var taskId: String {
        get { members.value.taskId }
        set { members.change { $0.taskId = newValue } }
    }
    /// When the outcome stops being useful, in milliseconds since the epoch: the message's `deadline`, or
    /// `receivedAt + timeoutMs`, or, when the message set neither, `receivedAt` plus the decoder's default
    /// timeout (the worker's `requestTimeout`); `nil` only when there was no default either.
    package var deadline: Int64? {
        get { members.value.deadline }
        set { members.change { $0.deadline = newValue } }
    }
    /// When the worker received the message, in milliseconds since the epoch.
    package var receivedAt: Int64 {
        get { members.value.receivedAt }
        set { members.change { $0.receivedAt = newValue } }
    }
    /// The layers to query, 1 to `maxTargets` (at most 16) targets, in the message's order.
    package var targets: [QueryTarget] {
        get { members.value.targets }
        set { members.change { $0.targets = newValue } }
    }
    /// What to select and return.
    package var query: QuerySpec {
        get { members.value.query }
        set { members.change { $0.query = newValue } }
    }
    /// The operator's credential the request picked by name (checked: it exists and covers every target);
    /// `nil` applies whatever credential covers each target by scope.
    package var credential: String? {
        get { members.value.credential }
        set { members.change { $0.credential = newValue } }
    }
    /// Whether the asker wants progress events while the request runs (`progress: true`, since 1.2). Advisory:
    /// it changes what else is published, never the outcome. Part of the sharing fingerprint, so every run
    /// publishes progress exactly for the requests on it (see the contract's "Progress").
    package var progress: Bool {
        get { members.value.progress }
        set { members.change { $0.progress = newValue } }
    }
    /// Where the selection goes and in what form (`delivery`, `format`, `compression`, since 1.3).
    package var delivery: ResultDelivery {
        get { members.value.delivery }
        set { members.change { $0.delivery = newValue } }
    }
    /// How many targets the request has, for checks outside this module (the request fuzzer's oracle).
    package var targetCount: Int { members.value.targets.count }

    /// A request; ``RequestDecoder`` makes these from messages, tests and tools may build them directly.
    package init(
        requestId: String, taskId: String? = nil, deadline: Int64? = nil, receivedAt: Int64, targets: [QueryTarget],
        query: QuerySpec, credential: String? = nil, progress: Bool = false, delivery: ResultDelivery = .default
    ) {
        members = SharedValue(Members(
            requestId: requestId, taskId: taskId ?? requestId, deadline: deadline, receivedAt: receivedAt,
            targets: targets, query: query, credential: credential, progress: progress, delivery: delivery))
    }

    /// The query for the feature-service seam, with the request's credential.
    package var serviceQuery: ServiceQuery {
        var query = members.value.query.serviceQuery
        query.credential = members.value.credential
        return query
    }

    /// The targets as the feature-service seam takes them, in order; the engine behind the seam picks the
    /// protocol by each target's kind.
    package var serviceTargets: [ServiceTarget] { members.value.targets.map(\.serviceTarget) }

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
