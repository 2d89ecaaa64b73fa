/// What a sample server has seen: tests read it to check what a client did (which layers it queried, with
/// which parameters, whether it gave up on a request) and which faults it met.
public struct SampleServerStatistics: Sendable, Hashable {
    /// Requests received (every path, faults included).
    public var requests = 0
    /// Query requests answered by the query handler, per layer (faulted requests are not counted here).
    public var queries: [SampleLayer: Int] = [:]
    /// OGC API items requests (`/items` pages and single features) answered, per collection id (faulted
    /// requests are not counted here; aborted ones are counted in ``aborted`` as for ArcGIS).
    public var ogcItemRequests: [String: Int] = [:]
    /// Metadata requests answered (directory, info, service and layer metadata).
    public var metadataRequests = 0
    /// ArcGIS error bodies sent for bad requests, unknown resources and refused tokens (not faults).
    public var errorResponses = 0
    /// Requests whose handler was cancelled before it completed because the client went away (closed
    /// the connection during added latency or a long query): how a test proves a client aborted.
    public var aborted = 0
    /// Service requests (everything but the token endpoints) whose handler is running now: from when the request
    /// was read until its response head is made (added latency included; a streamed body's writing is not).
    public var serviceRequestsInProgress = 0
    /// The most ``serviceRequestsInProgress`` has been: how a test checks a client's per-host concurrency limit.
    public var maxServiceRequestsInProgress = 0
    /// Faults injected, per kind.
    public var faultsInjected: [FaultKind: Int] = [:]
    /// The most recent requests, oldest first (bounded by the configuration's recentRequestLimit).
    public var recentRequests: [RecordedRequest] = []

    /// All counters zero, the log empty.
    public init() {}

    /// Query requests answered for one layer.
    public func queries(_ layer: SampleLayer) -> Int { queries[layer] ?? 0 }

    /// OGC items requests answered for one collection.
    public func ogcItemRequests(_ collection: String) -> Int { ogcItemRequests[collection] ?? 0 }

    /// The recent OGC items requests (pages and single features) for one collection, oldest first.
    public func recentOGCItemRequests(_ collection: String) -> [RecordedRequest] {
        recentRequests.filter { $0.collection == collection && $0.isOGCItems }
    }

    /// Faults injected of one kind.
    public func faults(_ kind: FaultKind) -> Int { faultsInjected[kind] ?? 0 }

    /// All faults injected.
    public var totalFaults: Int { faultsInjected.values.reduce(0, +) }

    /// The recent query requests for one layer, oldest first.
    public func recentQueries(_ layer: SampleLayer) -> [RecordedRequest] {
        recentRequests.filter { $0.layer == layer && $0.isQuery }
    }
}

/// One request as the server received it.
public struct RecordedRequest: Sendable, Hashable {
    /// One parameter, decoded.
    public struct Parameter: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value.
        public var value: String
    }

    /// Arrival order, from 1.
    public var sequence: Int
    /// `GET`, `POST`, ...
    public var method: String
    /// The percent-decoded path, e.g. `/arcgis/rest/services/USA/MapServer/1/query`.
    public var path: String
    /// Query-string parameters followed by form-body parameters, in order. The values of `token`,
    /// `password`, `client_secret`, `code`, `code_verifier`, `refresh_token`, `auth_token` and `apiKey` are
    /// replaced by `<redacted>` so secrets never sit in the log.
    public var parameters: [Parameter]
    /// Whether the request carried a token (parameter or bearer header).
    public var hadToken: Bool
    /// The layer the path names, if any.
    public var layer: SampleLayer?
    /// Whether the path is a layer's `query` operation.
    public var isQuery: Bool
    /// The OGC collection the path names, if any (`/ogc/collections/{id}/...`).
    public var collection: String? = nil
    /// Whether the path is an OGC items request (`.../items` or `.../items/{fid}`).
    public var isOGCItems = false
    /// Faults injected into this request.
    public var faults: [FaultKind]
    /// When the server began to handle the request (its head and body read).
    public var receivedAt: ContinuousClock.Instant?
    /// When the server saw the request aborted: its handler was cancelled because the client closed the
    /// connection before the response was made (nil for a request that was answered or is still running).
    /// Benchmarks measure how fast a client gives up from it.
    public var abortedAt: ContinuousClock.Instant?

    /// The first value of a parameter, name compared ignoring case.
    public func parameter(_ name: String) -> String? {
        let wanted = name.lowercased()
        return parameters.first { $0.name.lowercased() == wanted }?.value
    }
}
