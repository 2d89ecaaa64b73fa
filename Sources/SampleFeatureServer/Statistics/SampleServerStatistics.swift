/// What a sample server has seen: tests read it to check what a client did (which layers it queried, with
/// which parameters, whether it gave up on a request) and which faults it met.
package struct SampleServerStatistics: Sendable, Hashable {
    /// Requests received (every path, faults included).
    package var requests = 0
    /// Query requests answered by the query handler, per layer (faulted requests are not counted here).
    package var queries: [SampleLayer: Int] = [:]
    /// OGC API items requests (`/items` pages and single features) answered, per collection id (faulted
    /// requests are not counted here; aborted ones are counted in ``aborted`` as for ArcGIS).
    package var ogcItemRequests: [String: Int] = [:]
    /// Metadata requests answered (directory, info, service and layer metadata).
    package var metadataRequests = 0
    /// ArcGIS error bodies sent for bad requests, unknown resources and refused tokens (not faults).
    package var errorResponses = 0
    /// Requests whose handler was cancelled before it completed because the client went away (closed
    /// the connection during added latency or a long query): how a test proves a client aborted.
    package var aborted = 0
    /// Service requests (everything but the token endpoints) whose handler is running now: from when the request
    /// was read until its response head is made (added latency included; a streamed body's writing is not), or
    /// until its client left, if that came first.
    package var serviceRequestsInProgress = 0
    /// The most ``serviceRequestsInProgress`` has been. An upper bound of a client's concurrency, not a measure of
    /// it: a request the client abandoned counts until the server learns of it (see ``AnsweredServiceSpans``);
    /// a client's per-host limit is checked with ``SampleFeatureServer/mostAnsweredServiceRequestsAtOnce``.
    package var maxServiceRequestsInProgress = 0
    /// Faults injected, per kind.
    package var faultsInjected: [FaultKind: Int] = [:]
    /// The most recent requests, oldest first (bounded by the configuration's recentRequestLimit).
    package var recentRequests: [RecordedRequest] = []

    /// All counters zero, the log empty.
    package init() {}

    /// Query requests answered for one layer.
    package func queries(_ layer: SampleLayer) -> Int { queries[layer] ?? 0 }

    /// OGC items requests answered for one collection.
    package func ogcItemRequests(_ collection: String) -> Int { ogcItemRequests[collection] ?? 0 }

    /// The recent OGC items requests (pages and single features) for one collection, oldest first.
    package func recentOGCItemRequests(_ collection: String) -> [RecordedRequest] {
        recentRequests.filter { $0.collection == collection && $0.isOGCItems }
    }

    /// Faults injected of one kind.
    package func faults(_ kind: FaultKind) -> Int { faultsInjected[kind] ?? 0 }

    /// All faults injected.
    package var totalFaults: Int { faultsInjected.values.reduce(0, +) }

    /// The recent query requests for one layer, oldest first.
    package func recentQueries(_ layer: SampleLayer) -> [RecordedRequest] {
        recentRequests.filter { $0.layer == layer && $0.isQuery }
    }
}

/// One request as the server received it.
package struct RecordedRequest: Sendable, Hashable {
    /// One parameter, decoded.
    package struct Parameter: Sendable, Hashable {
        /// The decoded name.
        package var name: String
        /// The decoded value.
        package var value: String
    }

    /// Arrival order, from 1.
    package var sequence: Int
    /// `GET`, `POST`, ...
    package var method: String
    /// The percent-decoded path, e.g. `/arcgis/rest/services/USA/MapServer/1/query`.
    package var path: String
    /// Query-string parameters followed by form-body parameters, in order. The values of `token`,
    /// `password`, `client_secret`, `code`, `code_verifier`, `refresh_token`, `auth_token` and `apiKey` are
    /// replaced by `<redacted>` so secrets never sit in the log.
    package var parameters: [Parameter]
    /// Whether the request carried a token (parameter or bearer header).
    package var hadToken: Bool
    /// The layer the path names, if any.
    package var layer: SampleLayer?
    /// Whether the path is a layer's `query` operation.
    package var isQuery: Bool
    /// The OGC collection the path names, if any (`/ogc/collections/{id}/...`).
    package var collection: String? = nil
    /// Whether the path is an OGC items request (`.../items` or `.../items/{fid}`).
    package var isOGCItems = false
    /// Faults injected into this request.
    package var faults: [FaultKind]
    /// When the server began to handle the request (its head and body read).
    package var receivedAt: ContinuousClock.Instant?
    /// When the server saw the request aborted: its handler was cancelled because the client closed the
    /// connection before the response was made (nil for a request that was answered or is still running).
    /// Benchmarks measure how fast a client gives up from it.
    package var abortedAt: ContinuousClock.Instant?

    /// The first value of a parameter, name compared ignoring case.
    package func parameter(_ name: String) -> String? {
        let wanted = name.lowercased()
        return parameters.first { $0.name.lowercased() == wanted }?.value
    }
}
