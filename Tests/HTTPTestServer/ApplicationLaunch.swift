import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The application in its service group, and the port it reports once bound.
struct ApplicationLaunch: Sendable {
    let group: ServiceGroup
    let connections: ConnectionRegistry
    private let bound: AsyncStream<Int?>
    private let boundSink: AsyncStream<Int?>.Continuation

    init(host: String, port: Int = 0, logger: Logger, responder: some HTTPResponder<TestRequestContext>) {
        (bound, boundSink) = AsyncStream.makeStream(of: Int?.self)
        // Hummingbird announces itself at info; the test's own logger decides the rest.
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        let sink = boundSink
        let connections = ConnectionRegistry()
        self.connections = connections
        let observed = HTTP1Channel.Configuration(additionalChannelHandlers: [ConnectionObserver(registry: connections)])
        let app = Application(
            responder: TestResponder(inner: responder),
            server: .http1(configuration: observed),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                sink.yield(channel.localAddress?.port)
                sink.finish()
            },
            logger: quiet
        )
        group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: quiet))
    }

    /// Runs the application until its graceful shutdown.
    func run() async throws {
        defer { boundSink.finish() }
        try await group.run()
    }

    /// The bound port, or nil when the application stopped before binding.
    func boundPort() async -> Int? {
        var port: Int?
        for await value in bound { port = value }
        return port
    }
}
