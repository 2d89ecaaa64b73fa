package import Hummingbird
package import Logging
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
        /// Connections that closed with a response still owed: the client gave up, or a body was cut short (not
        /// counted for connections that ``stop()`` closes).
        package var responsesAbandoned = 0
        /// Response body bytes written to the socket.
        package var bodyBytesSent = 0
    }

    /// The address the server listens on.
    package let host: String
    /// The port the kernel chose.
    package let port: Int
    private let group: ServiceGroup
    private let connections: ConnectionRegistry
    /// The task running ``group`` for a server from ``start(host:port:logger:responder:)``; nil inside
    /// ``withServer(host:logger:responder:_:)``, where a child task of the caller runs it.
    private let running: Task<Void, any Error>?

    private init(host: String, port: Int, application: ApplicationLaunch, running: Task<Void, any Error>?) {
        self.host = host
        self.port = port
        self.group = application.group
        self.connections = application.connections
        self.running = running
    }

    /// `http://host:port`, without a trailing slash.
    package var baseURL: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// ``baseURL`` followed by `path` (which starts with `/`).
    package func url(_ path: String) -> String { baseURL + path }

    /// A snapshot of the counters.
    package var statistics: Statistics { connections.statistics }

    /// Runs `body` with a server on `responder` on `host` (port 0), then stops it, also when `body` throws.
    /// The application runs in a child task for the scope of `body`.
    package static func withServer<T>(
        host: String = "127.0.0.1", logger: Logger, responder: some HTTPResponder<TestRequestContext>,
        _ body: (TestHTTPServer) async throws -> T
    ) async throws -> T {
        let application = ApplicationLaunch(host: host, logger: logger, responder: responder)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await application.run() }
            guard let port = await application.boundPort() else {
                try await tasks.waitForAll()  // the group's error says why it could not listen
                throw TestServerError(message: "can't listen on \(host)")
            }
            let server = TestHTTPServer(host: host, port: port, application: application, running: nil)
            let result: Result<T, any Error>
            do {
                result = .success(try await body(server))
            } catch {
                result = .failure(error)
            }
            await server.stop()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    /// ``withServer(host:logger:responder:_:)`` with one closure as the responder.
    package static func withServer<T>(
        host: String = "127.0.0.1", logger: Logger, handler: @escaping Handler, _ body: (TestHTTPServer) async throws -> T
    ) async throws -> T {
        try await withServer(host: host, logger: logger, responder: CallbackResponder { request, _ in try await handler(request) }, body)
    }

    /// Starts serving `responder` on `host` and `port` (0: one the kernel picks) for a server that outlives the
    /// caller's scope (a fixture object's, or one squatting a port), and returns once the socket is bound. The
    /// owner calls ``stop()``.
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, logger: Logger, responder: some HTTPResponder<TestRequestContext>
    ) async throws -> TestHTTPServer {
        let application = ApplicationLaunch(host: host, port: port, logger: logger, responder: responder)
        let running = Task { try await application.run() }
        guard let port = await application.boundPort() else {
            running.cancel()
            throw TestServerError(message: "can't listen on \(host): \(await running.result)")
        }
        return TestHTTPServer(host: host, port: port, application: application, running: running)
    }

    /// ``start(host:port:logger:responder:)`` with one closure as the responder.
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, logger: Logger, handler: @escaping Handler
    ) async throws -> TestHTTPServer {
        try await start(host: host, port: port, logger: logger, responder: CallbackResponder { request, _ in try await handler(request) })
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
        _ = await running?.result
    }

    deinit {
        // A server never stopped must not keep its port.
        running?.cancel()
    }
}

/// The server could not start.
package struct TestServerError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { "TestServerError: \(message)" }
}
