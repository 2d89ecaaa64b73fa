import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The open connections of one server and its counters, shared by the connections' observers.
final class ConnectionRegistry: Sendable {
    private let counters = Mutex(TestHTTPServer.Statistics())
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    private let stopping = Atomic(false)

    var statistics: TestHTTPServer.Statistics { counters.withLock { $0 } }

    func update(_ change: (inout TestHTTPServer.Statistics) -> Void) { counters.withLock { change(&$0) } }

    func opened(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
        update {
            $0.connectionsAccepted += 1
            $0.openConnections += 1
        }
    }

    /// `owing`: a response was still owed. Not counted as abandoned while the server itself closes connections.
    func closed(_ channel: any Channel, owing: Bool) {
        channels.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
        let abandoned = owing && !stopping.load(ordering: .acquiring)
        update {
            $0.openConnections -= 1
            if abandoned { $0.responsesAbandoned += 1 }
        }
    }

    /// Closes every open connection, for good: the server is stopping.
    func closeAll() {
        stopping.store(true, ordering: .releasing)
        for channel in channels.withLock({ Array($0.values) }) { channel.close(promise: nil) }
    }
}

/// Added to each connection through Hummingbird's `additionalChannelHandlers`, after the HTTP codec: counts
/// what goes through for ``TestHTTPServer/Statistics``, and closes the connection once the client has stopped
/// sending (Hummingbird allows half-closure; curl closing a connection means it has given up).
/// Event-loop state only.
final class ConnectionObserver: ChannelDuplexHandler, RemovableChannelHandler {
    // NIOHTTPTypes' request and response parts, named through Hummingbird's own handler (swift-nio-extras is
    // Hummingbird's dependency, not this package's).
    typealias InboundIn = HTTPConnectionStateHandler.InboundIn
    typealias InboundOut = HTTPConnectionStateHandler.InboundIn
    typealias OutboundIn = HTTPConnectionStateHandler.OutboundIn
    typealias OutboundOut = HTTPConnectionStateHandler.OutboundIn

    private let registry: ConnectionRegistry
    private var channel: (any Channel)?
    /// Requests read whole whose response is not written completely yet.
    private var owed = 0

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        registry.opened(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) { finish() }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            owed += 1
            registry.update { $0.requestsReceived += 1 }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        switch unwrapOutboundIn(data) {
        case .head:
            break
        case .body(let body):
            let count = body.readableBytes
            written.futureResult.assumeIsolated().whenSuccess { self.registry.update { $0.bodyBytesSent += count } }
        case .end:
            written.futureResult.assumeIsolated().whenSuccess {
                guard self.owed > 0 else { return }  // Hummingbird's own 400 for a request it could not parse
                self.owed -= 1
                self.registry.update { $0.requestsServed += 1 }
            }
        }
        context.write(data, promise: written)
    }

    private func finish() {
        guard let channel else { return }
        self.channel = nil
        registry.closed(channel, owing: owed > 0)
    }
}
