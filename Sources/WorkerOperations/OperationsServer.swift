import Hummingbird
package import Logging
import NIOCore
package import Prometheus
package import QueryWorker
import ServiceLifecycle
import Synchronization

/// The worker's operations endpoint on Hummingbird: `/metrics`, `/health/live`, `/health/ready` and the status
/// page at `/`, on a port of its own.
///
/// A `Service` for the worker's `ServiceGroup`, placed first (``WorkerAssembly/serviceGroup(handlesSignals:before:logger:)``)
/// so it stops last: probes and scrapes keep answering while the worker drains. Hummingbird's server follows the
/// group's graceful shutdown (it stops accepting and finishes what it serves); it installs no signal handler of
/// its own. A port it cannot bind ends `run()` with the error, which stops the worker: a worker told to serve
/// probes that cannot would be restarted by its orchestrator anyway, and the error says which port.
package final class OperationsServer: Service, Sendable {
    package let host: String
    package let port: Int
    private let status: @Sendable () -> WorkerStatus
    private let exposition: MetricsExposition
    private let logger: Logger
    private let bound = Mutex<Int?>(nil)

    /// A server on `host:port` (port 0: any free port, see ``boundPort(timeout:)``) reading `status` on every
    /// health or page request and `registry` on every scrape.
    package init(
        host: String, port: Int, status: @escaping @Sendable () -> WorkerStatus, registry: PrometheusCollectorRegistry,
        help: MetricHelp = .worker, logger: Logger
    ) {
        self.host = host
        self.port = port
        self.status = status
        self.exposition = MetricsExposition(registry: registry, help: help)
        self.logger = logger
    }

    /// The operations endpoint for `assembly` as `settings` configure it; `nil` when it is off (port 0).
    package convenience init?(settings: WorkerSettings.Operations, assembly: WorkerAssembly, registry: PrometheusCollectorRegistry, logger: Logger) {
        guard settings.isEnabled else { return nil }
        self.init(host: settings.address, port: settings.port, status: { assembly.status() }, registry: registry, logger: logger)
    }

    package func run() async throws {
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port
                // Hummingbird logs "Server started and listening on HOST:PORT" itself.
                self.bound.withLock { $0 = port }
            },
            logger: self.logger)
        try await app.run()
    }

    /// The port the server listens on, once it does (the real one when started with port 0); waits up to
    /// `timeout`, then throws.
    package func boundPort(timeout: Duration = .seconds(30)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let port = bound.withLock({ $0 }) { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw OperationsServerError(message: "the operations endpoint did not listen on \(host):\(port) within \(timeout)")
    }

    private func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let (status, exposition) = (self.status, self.exposition)
        router.get("/metrics") { _, _ -> Response in
            Self.response(.ok, contentType: MetricsExposition.contentType, body: ByteBuffer(bytes: exposition.render()))
        }
        router.get("/health/live") { _, _ -> Response in Self.response(HealthCheck.live(status())) }
        router.get("/health/ready") { _, _ -> Response in Self.response(HealthCheck.ready(status())) }
        router.get("/") { _, _ -> Response in
            Self.response(.ok, contentType: "text/html; charset=utf-8", body: ByteBuffer(string: StatusPage(status: status()).html))
        }
        return router
    }

    private static func response(_ check: HealthCheck) -> Response {
        response(
            check.statusCode == 200 ? .ok : .serviceUnavailable, contentType: "application/json; charset=utf-8",
            body: ByteBuffer(string: check.body))
    }

    private static func response(_ status: HTTPResponse.Status, contentType: String, body: ByteBuffer) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}

/// The operations endpoint could not do what it was asked: it did not start listening in time (the address is
/// not local, or the port is taken: the worker's log has the bind error).
package struct OperationsServerError: Error, CustomStringConvertible {
    /// `ops_not_listening`.
    package var code = "ops_not_listening"
    package var message: String
    /// Waiting again does not help: the configuration or the machine must change.
    package var isRetryable: Bool { false }
    package var description: String { "\(code): \(message)" }
}
