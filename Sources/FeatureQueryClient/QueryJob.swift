public import Foundation

/// One query job as a service publishes it: the contract's request (docs/contract/README.md, "Requests").
///
/// A value with every field of the contract, so that what the worker can be asked is what this type can say.
/// ``FeatureQueryClient`` checks it with the worker's own decoder before publishing it.
public struct QueryJob: Sendable, Hashable {
    /// The supersession key and message key: a newer job for the same task replaces an older one in flight.
    /// `nil` makes the job a task of its own (the contract then keys it by its ``requestId``).
    public var taskId: String?
    /// Names this job in its outcome; unique per job (a new UUID unless given).
    public var requestId: String
    /// When the outcome is no longer wanted, as an instant (counts time spent waiting in the topic).
    public var deadline: Date?
    /// How long the worker may take, counted from when it read the job. Not together with ``deadline``.
    public var timeout: Duration?
    /// 1–16 distinct targets.
    public var targets: [Target]
    /// What to select and return.
    public var query: Query
    /// A credential of the worker's credentials file, by name; never a secret.
    public var credential: String?
    /// Whether the worker publishes progress events while the job runs (``FeatureQueryClient/progress(of:)``).
    public var progress: Bool
    /// Where the selection goes: in the result message, or in the worker's object store with the result carrying
    /// its ``StoredResultLocation`` (contract 1.3). ``Delivery/auto`` unless set.
    public var delivery: Delivery
    /// How a stored selection is laid out; only for a result that may be stored (not with ``Delivery/inline``).
    public var format: StoredFormat
    /// How a stored selection is compressed; only for a result that may be stored (not with ``Delivery/inline``).
    public var compression: StoredCompression

    /// A value with these members.
    public init(
        taskId: String? = nil, requestId: String = UUID().uuidString, deadline: Date? = nil, timeout: Duration? = nil,
        targets: [Target], query: Query = Query(), credential: String? = nil, progress: Bool = false,
        delivery: Delivery = .auto, format: StoredFormat = .geojson, compression: StoredCompression = .none
    ) {
        self.taskId = taskId
        self.requestId = requestId
        self.deadline = deadline
        self.timeout = timeout
        self.targets = targets
        self.query = query
        self.credential = credential
        self.progress = progress
        self.delivery = delivery
        self.format = format
        self.compression = compression
    }

    /// The message key and supersession key: the taskId, or the requestId of a job without one (the contract's
    /// keying rule, which puts a task's jobs on one partition, in order).
    public var key: String { taskId ?? requestId }

    /// A layer or service to query.
    public enum Target: Sendable, Hashable {
        /// An ArcGIS REST layer (`…/FeatureServer/0`) or service (`…/MapServer`, with `layers` naming sublayers;
        /// without, every feature layer of the service).
        case arcgis(url: String, layers: [Int]? = nil)
        /// An OGC API Features collection of a landing page (`collection` may be absent only for a catalog).
        case ogc(landingPage: String, collection: String?)
    }
}
