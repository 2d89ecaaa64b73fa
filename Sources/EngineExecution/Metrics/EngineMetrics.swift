import Synchronization
package import CurlHTTP
package import Metrics
import Foundation

/// What the engines count: each HTTP exchange with a feature service by host and status class, its duration,
/// retries and `Retry-After` waits (``HostMetrics``), and metadata cache lookups (``MetadataCacheMetrics``).
///
/// One instance for every engine of a worker (``init(factory:)`` with the worker's factory), so both protocols'
/// requests to one host land in one series. Labels are hosts only (``HostMetrics/hostLabel(origin:)``), never
/// paths, queries or user information.
package final class EngineMetrics: Sendable {
    package let cache: MetadataCacheMetrics
    /// Per origin as the engines spell it (the key is the string they already hold: no label is formatted on
    /// the hot path, one dictionary lookup finds every handle of the host).
    private let hosts: LabelledHandles<String, HostMetrics>

    /// Metrics made through `factory`: the global one (`MetricsSystem.factory`, a no-op until the executable
    /// bootstraps Prometheus) unless a caller passes its own (tests pass `TestMetrics`).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        cache = MetadataCacheMetrics(factory: factory)
        hosts = LabelledHandles { origin in HostMetrics(host: HostMetrics.hostLabel(origin: origin), factory: factory) }
    }

    /// The handles of the host of `origin` (`scheme://host[:port]`).
    package func host(_ origin: String) -> HostMetrics { hosts[origin] }

    /// Executes `request` through `client`, counting the exchange for `origin`'s host: its status class (or
    /// `error` for a transfer that failed without an answer) and its duration. A cancelled transfer (a
    /// superseded or expired request) is not counted: it says nothing about the service.
    package func execute(_ request: HTTPRequest, on client: HTTPClient, origin: String) async throws -> HTTPResponse {
        let host = hosts[origin]
        let started = ContinuousClock.now
        do {
            let response = try await client.tracedExecute(request)
            host.exchanged(status: response.status, duration: ContinuousClock.now - started)
            return response
        } catch let error as HTTPError {
            if error.code != .cancelled { host.exchanged(status: nil, duration: ContinuousClock.now - started) }
            throw error
        }
    }
}

/// One host's HTTP handles, made once when the engines first talk to it.
package final class HostMetrics: Sendable {
    /// `http_requests_total` by status class: index 0 is `error`, 1 to 5 are `1xx` to `5xx`.
    private let requests: [Counter]
    private let duration: Metrics.Timer
    private let retries: Counter
    private let retryAfterWaits: Counter
    private let retryAfterSeconds: FloatingPointCounter

    init(host: String, factory: any MetricsFactory) {
        requests = ["error", "1xx", "2xx", "3xx", "4xx", "5xx"].map {
            EngineMetrics.httpRequests.counter(factory, host, $0)
        }
        duration = EngineMetrics.httpRequestDuration.timer(factory, host)
        retries = EngineMetrics.httpRetries.counter(factory, host)
        retryAfterWaits = EngineMetrics.httpRetryAfterWaits.counter(factory, host)
        retryAfterSeconds = EngineMetrics.httpRetryAfterWaitSeconds.floatingPointCounter(factory, host)
    }

    /// One exchange ended: with an HTTP `status`, or nil for a transfer that failed without one (counted as
    /// `error`, as is a status outside 100-599).
    package func exchanged(status: Int?, duration: Duration) {
        let index = status.map { (100..<600).contains($0) ? $0 / 100 : 0 } ?? 0
        requests[index].increment()
        self.duration.record(duration: duration)
    }

    /// A request is sent again after `delay`; `retryAfter` is the service's `Retry-After` when it sent one (the
    /// retry schedule then waits exactly that long).
    package func retried(delay: Duration, retryAfter: Duration?) {
        retries.increment()
        guard retryAfter != nil else { return }
        retryAfterWaits.increment()
        let (seconds, attoseconds) = delay.components
        retryAfterSeconds.increment(by: Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The `host` label of an origin: host and port only, lower-cased, without scheme, user information or
    /// path, and without the scheme's default port (so `https://h` and `https://h:443` are one host).
    package static func hostLabel(origin: String) -> String {
        var rest = Substring(origin)
        let isHTTPS = rest.lowercased().hasPrefix("https://")
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = rest.lowercased()
        let defaultPort = isHTTPS ? ":443" : ":80"
        if host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        return host.isEmpty ? "unknown" : host
    }
}

/// Metadata cache lookups by result, counted by ``ExpiringCache`` (and by an engine's own copy of fresh
/// entries): three handles made once, no label lookup per query.
package final class MetadataCacheMetrics: Sendable {
    private let hits: Counter
    private let misses: Counter
    private let shares: Counter
    private let entries: Gauge
    /// Entries of every cache counted here (each engine has its own cache; the gauge shows their sum).
    private let total = Atomic<Int>(0)

    package init(factory: any MetricsFactory) {
        hits = EngineMetrics.metadataCacheRequests.counter(factory, "hit")
        misses = EngineMetrics.metadataCacheRequests.counter(factory, "miss")
        shares = EngineMetrics.metadataCacheRequests.counter(factory, "shared")
        entries = EngineMetrics.metadataCacheEntries.gauge(factory)
    }

    /// A cache's number of entries (values and loads) changed by `delta`.
    package func entriesChanged(by delta: Int) {
        let now = total.add(delta, ordering: .relaxed).newValue
        entries.record(now)
    }

    /// A fresh cached value answered.
    package func hit() { hits.increment() }
    /// The caller loads the value (and others asking meanwhile share the load).
    package func miss() { misses.increment() }
    /// The caller waited for a load another caller started.
    package func shared() { shares.increment() }
}
