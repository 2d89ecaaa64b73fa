package import Logging
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix

/// A small HTTP/1.1 server on loopback, for tests that need a real server on a real socket, and for the
/// sample feature server.
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
        /// Complete requests (head and body) handed to the handler.
        package var requestsReceived = 0
        /// Responses written completely.
        package var requestsServed = 0
        /// Responses the client gave up on: it closed the connection before the response was complete.
        package var responsesAbandoned = 0
        /// Response body bytes handed to the kernel.
        package var bodyBytesSent = 0

        /// All counters zero.
        package init() {}
    }

    /// The address the server is bound to.
    package let host: String
    /// The port the server is bound to (the one the kernel chose when started with port 0).
    package let port: Int
    private let channel: any Channel
    private let state: LoopbackServerState

    private init(host: String, port: Int, channel: any Channel, state: LoopbackServerState) {
        self.host = host
        self.port = port
        self.channel = channel
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
        let state = LoopbackServerState(handler: handler, logger: logger)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: false,
                        withErrorHandling: true
                    )
                    try channel.pipeline.syncOperations.addHandler(LoopbackConnectionHandler(state: state))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            throw LoopbackServerError(message: "the server socket has no local port")
        }
        logger.debug("loopback HTTP server listening", metadata: ["host": "\(host)", "port": "\(boundPort)"])
        return LoopbackHTTPServer(host: host, port: boundPort, channel: channel, state: state)
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
    /// when all are closed.
    package func shutdown() async {
        state.beginShutdown()
        try? await channel.close()
        for child in state.openChannels() {
            try? await child.close()
        }
    }

    deinit {
        // A server that was never shut down must not keep its port: close without waiting.
        channel.close(promise: nil)
    }
}

/// The server could not start.
package struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var message: String
    package var description: String { "LoopbackServerError: \(message)" }
}
