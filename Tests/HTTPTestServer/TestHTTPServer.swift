package import Hummingbird
import HummingbirdCore
package import Logging
import NIOCore
import ServiceLifecycle

/// A Hummingbird application on loopback for tests: a fake server's responder on a real socket at a port the
/// kernel picks, with counters of what its connections saw (``Statistics``) so that a test can check
/// connection reuse, or a client giving up, by waiting for a count instead of sleeping.
///
/// The responder is wrapped in ``TestResponder``: bodies are read whole first, HEAD answers drop the body, and
/// a handler still working when its client closes the connection is cancelled.
package final class TestHTTPServer: Sendable {
    /// A fake server written as one closure over Hummingbird's request.
    package typealias Handler = @Sendable (Request) async throws -> Response

    /// What the server's connections have seen; the counters only grow, except ``openConnections``.
    package struct Statistics: Sendable, Hashable {
        /// TCP connections accepted.
        package var connectionsAccepted = 0
        /// TCP connections open now.
        package var openConnections = 0
        /// Requests read whole (head, body and end).
        package var requestsReceived = 0
        /// Responses written completely.
        package var requestsServed = 0
        /// Connections that closed with a response still owed: the client gave up (or a body was cut short).
        package var responsesAbandoned = 0
        /// Response body bytes written to the socket.
        package var bodyBytesSent = 0
    }

    /// The address the server listens on.
    package let host: String
    /// The port the kernel chose.
    package let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let connections: ConnectionRegistry

    private init(host: String, port: Int, group: ServiceGroup, running: Task<Void, any Error>, connections: ConnectionRegistry) {
        self.host = host
        self.port = port
        self.group = group
        self.running = running
        self.connections = connections
    }

    /// `http://host:port`, without a trailing slash.
    package var baseURL: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// ``baseURL`` followed by `path` (which starts with `/`).
    package func url(_ path: String) -> String { baseURL + path }

    /// A snapshot of the counters.
    package var statistics: Statistics { connections.statistics }

    /// Starts serving `responder` on `host`, port 0, and returns once the socket is bound. Call ``stop()``;
    /// ``withServer(host:logger:responder:_:)`` does it for a scope.
    package static func start(
        host: String = "127.0.0.1", logger: Logger, responder: some HTTPResponder<TestRequestContext>
    ) async throws -> TestHTTPServer {
        let connections = ConnectionRegistry()
        // Hummingbird announces itself at info; the test's own logger decides the rest.
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        let (bound, boundSink) = AsyncStream.makeStream(of: Int?.self)
        let app = Application(
            responder: TestResponder(inner: responder),
            server: .http1(configuration: HTTP1Channel.Configuration(additionalChannelHandlers: [ConnectionObserver(registry: connections)])),
            configuration: ApplicationConfiguration(address: .hostname(host, port: 0)),
            onServerRunning: { channel in
                boundSink.yield(channel.localAddress?.port)
                boundSink.finish()
            },
            logger: quiet
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: quiet))
        let running = Task {
            defer { boundSink.finish() }
            try await group.run()
        }
        var port: Int?
        for await value in bound { port = value }
        guard let port else {
            running.cancel()
            let reason = await running.result
            throw TestServerError(message: "can't listen on \(host): \(reason)")
        }
        return TestHTTPServer(host: host, port: port, group: group, running: running, connections: connections)
    }

    /// ``start(host:logger:responder:)`` with one closure as the responder.
    package static func start(host: String = "127.0.0.1", logger: Logger, handler: @escaping Handler) async throws -> TestHTTPServer {
        try await start(host: host, logger: logger, responder: CallbackResponder { request, _ in try await handler(request) })
    }

    /// Runs `body` with a server on `responder`, then stops it, also when `body` throws.
    package static func withServer<T>(
        host: String = "127.0.0.1", logger: Logger, responder: some HTTPResponder<TestRequestContext>,
        _ body: (TestHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try await start(host: host, logger: logger, responder: responder)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// ``withServer(host:logger:responder:_:)`` with one closure as the responder.
    package static func withServer<T>(
        host: String = "127.0.0.1", logger: Logger, handler: @escaping Handler, _ body: (TestHTTPServer) async throws -> T
    ) async throws -> T {
        try await withServer(host: host, logger: logger, responder: CallbackResponder { request, _ in try await handler(request) }, body)
    }

    /// Waits until `condition` holds for the counters, for at most `timeout`, and says whether it held.
    package func waitUntil(timeout: Duration = .seconds(30), _ condition: (Statistics) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(statistics) {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return condition(statistics) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Graceful shutdown through the service group; connections still busy are closed, which cancels their
    /// handlers, so a handler sleeping for minutes does not hold the test up.
    package func stop() async {
        await group.triggerGracefulShutdown()
        connections.closeAll()
        _ = await running.result
    }

    deinit {
        // A server never stopped must not keep its port.
        running.cancel()
    }
}

/// The server could not start.
package struct TestServerError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { "TestServerError: \(message)" }
}
