import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The sample server's HTTP/1.1 on loopback: a Hummingbird application whose responder hands each request,
/// read whole, to the sample server's handler.
///
/// Besides what Hummingbird does, it keeps what the sample server's tests rely on: a handler whose client
/// closes its connection is cancelled at once (the request counts as aborted), shutting down closes the
/// connections still open (a 30-second latency fault must not hold it up), and connections are counted
/// (``SampleHTTPStatistics``). Responses keep connections alive, so a client's connection reuse shows there.
final class SampleHTTPServer: Sendable {
    /// Turns a request into a response; a thrown error (other than the client going away) becomes a 500.
    typealias Handler = @Sendable (SampleRequest) async throws -> Response

    /// The address the server is bound to.
    let host: String
    /// The port the server is bound to (the one the kernel chose when started with port 0).
    let port: Int
    /// Runs the Hummingbird application; its graceful shutdown stops the server without error logs.
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let connections: SampleConnections

    private init(host: String, port: Int, group: ServiceGroup, running: Task<Void, any Error>, connections: SampleConnections) {
        self.host = host
        self.port = port
        self.group = group
        self.running = running
        self.connections = connections
    }

    /// `http://host:port`, without a trailing slash.
    var baseURL: String {
        let literal = host.contains(":") ? "[\(host)]" : host
        return "http://\(literal):\(port)"
    }

    /// Binds to `host` and `port` (0: an ephemeral port the kernel picks) and starts serving, on SwiftNIO's
    /// shared event loops.
    static func start(host: String, port: Int, logger: Logger, handler: @escaping Handler) async throws -> SampleHTTPServer {
        let connections = SampleConnections()
        // Hummingbird announces itself at info; the sample server logs what matters.
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .notice)
        let (bound, boundSink) = AsyncStream.makeStream(of: Int?.self)
        let channel = HTTP1Channel.Configuration(additionalChannelHandlers: [SampleConnectionObserver(connections: connections)])
        let app = Application(
            responder: SampleResponder(handler: handler, connections: connections, logger: logger),
            server: .http1(configuration: channel),
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
            throw SampleServerStartError(message: "can't listen on \(host):\(port): \(reason)")
        }
        return SampleHTTPServer(host: host, port: boundPort, group: group, running: running, connections: connections)
    }

    /// A snapshot of the connection counters.
    var statistics: SampleHTTPStatistics { connections.statistics }

    /// Stops accepting, closes every open connection (cancelling handlers still running) and returns when
    /// the server has stopped.
    func shutdown() async {
        await Self.stop(group: group, connections: connections, running: running)
    }

    deinit {
        // A server that was never shut down (a test that threw before its `shutdown()`) must not keep its port.
        // It stops as `shutdown()` stops it, not by cancelling the serving task: a connection accepted but not yet
        // served when that task is cancelled is dropped, and SwiftNIO traps on it ("Deinited NIOAsyncWriter without
        // calling finish()", apple/swift-nio#2813), which took a whole test process down after one test failed.
        let (group, connections, running) = (group, connections, running)
        Task { await Self.stop(group: group, connections: connections, running: running) }
    }

    /// Stops accepting (a graceful shutdown drains the connections already accepted), closes the open ones and
    /// waits for the serving task to end.
    private static func stop(group: ServiceGroup, connections: SampleConnections, running: Task<Void, any Error>) async {
        let open = connections.beginShutdown()
        await group.triggerGracefulShutdown()
        for connection in open {
            try? await connection.channel.close()
        }
        _ = await running.result
    }
}

/// The sample server could not start: its address is taken or can't be bound. Not retryable as such:
/// choose another port (or 0) or stop what holds it.
package struct SampleServerStartError: Error, Sendable, CustomStringConvertible {
    /// `"listen"`: binding the address failed.
    package var code: String { "listen" }
    /// What went wrong, with the address.
    package var message: String
    /// Whether trying again unchanged may work (a port being released): false.
    package var isRetryable: Bool { false }
    package var description: String { "SampleServerStartError: \(message)" }
}
