import Hummingbird
package import Logging
internal import NIOCore
import ServiceLifecycle

/// A small HTTP/1.1 server on loopback, on Hummingbird: the tests' real server on a real socket, the sample
/// feature server's, and `login`'s redirect listener.
///
/// Each request is read whole and handed to an async handler; its response is written back with
/// keep-alive, so a client's connection reuse shows in ``Statistics/connectionsAccepted``. When a client
/// closes its connection while the handler is still working, the handler's task is cancelled and the
/// response counts as abandoned: that is how a test sees a client give up.
package final class LoopbackHTTPServer: Sendable {
    /// Turns a request into a response. Sleeping before returning delays the head (a slow first byte);
    /// a thrown error becomes a 500 response.
    package typealias Handler = @Sendable (LoopbackRequest) async throws -> LoopbackResponse

    /// What the server has seen so far; the counters only grow, except ``openConnections``.
    package struct Statistics: Sendable, Hashable {
        /// TCP connections accepted.
        package var connectionsAccepted = 0
        /// TCP connections open now.
        package var openConnections = 0
        /// Complete requests (head and body) read off a connection.
        package var requestsReceived = 0
        /// Responses written completely.
        package var requestsServed = 0
        /// Responses the client gave up on: it closed the connection before the response was complete.
        package var responsesAbandoned = 0
        /// Response body bytes written to the socket.
        package var bodyBytesSent = 0

        /// All counters zero.
        package init() {}
    }

    /// The address the server is bound to.
    package let host: String
    /// The port the server is bound to (the one the kernel chose when started with port 0).
    package let port: Int
    /// Runs the Hummingbird application; its graceful shutdown stops the server without error logs.
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let state: LoopbackServerState

    private init(host: String, port: Int, group: ServiceGroup, running: Task<Void, any Error>, state: LoopbackServerState) {
        self.host = host
        self.port = port
        self.group = group
        self.running = running
        self.state = state
    }

    /// `http://host:port`, without a trailing slash.
    package var baseURL: String {
        let literal = host.contains(":") ? "[\(host)]" : host
        return "http://\(literal):\(port)"
    }

    /// ``baseURL`` followed by `path` (which should start with `/`).
    package func url(_ path: String) -> String { baseURL + path }

    /// Binds to `host` and `port` (0: an ephemeral port the kernel picks) and starts serving. The server
    /// runs on SwiftNIO's shared event loops, so starting one is cheap: a test may start several.
    package static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger,
        handler: @escaping Handler
    ) async throws -> LoopbackHTTPServer {
        let state = LoopbackServerState(logger: logger)
        // Hummingbird announces itself at info; the owner of the server logs what matters.
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .notice)
        let (bound, boundSink) = AsyncStream.makeStream(of: Int?.self)
        let app = Application(
            responder: LoopbackResponder(handler: handler, state: state),
            server: .loopback(state: state),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), backlog: 1024, reuseAddress: true),
            onServerRunning: { channel in
                boundSink.yield(channel.localAddress?.port)
                boundSink.finish()
            },
            logger: serverLogger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: serverLogger))
        let running = Task {
            defer { boundSink.finish() }
            try await group.run()
        }
        var boundPort: Int?
        for await port in bound { boundPort = port }
        guard let boundPort else {
            running.cancel()
            let reason: String
            do {
                try await running.value
                reason = "the server socket has no local port"
            } catch {
                reason = "\(error)"
            }
            throw LoopbackServerError(message: "can't listen on \(host):\(port): \(reason)")
        }
        logger.debug("loopback HTTP server listening", metadata: ["host": "\(host)", "port": "\(boundPort)"])
        return LoopbackHTTPServer(host: host, port: boundPort, group: group, running: running, state: state)
    }

    /// A snapshot of the counters.
    package var statistics: Statistics { state.statistics }

    /// Waits until `condition` holds for the counters, polling, for at most `timeout`. Returns whether it
    /// held: tests wait for what the server saw instead of sleeping for a guessed time.
    package func waitUntil(timeout: Duration = .seconds(30), _ condition: (Statistics) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(statistics) {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return condition(statistics) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Stops accepting, closes every open connection (cancelling handlers still running) and returns
    /// when the server has stopped.
    package func shutdown() async {
        state.beginShutdown()
        await group.triggerGracefulShutdown()
        for connection in state.openConnections() {
            try? await connection.channel.close()
        }
        _ = await running.result
    }

    deinit {
        // A server that was never shut down must not keep its port.
        running.cancel()
    }
}

/// The server could not start.
package struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var message: String
    package var description: String { "LoopbackServerError: \(message)" }
}
