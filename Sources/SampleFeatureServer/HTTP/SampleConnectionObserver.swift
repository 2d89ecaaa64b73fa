import NIOCore

/// Sits in each connection's pipeline (Hummingbird's `additionalChannelHandlers`) for what Hummingbird
/// leaves to the application: counting the connection, and cancelling its handler when the client goes
/// away (Hummingbird would let it run to the end, a 30-second latency fault included).
///
/// Event-loop state only; it passes every part through untouched.
final class SampleConnectionObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let connections: SampleConnections
    private var connection: SampleConnection?

    init(connections: SampleConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let connection = SampleConnection(channel: context.channel)
        self.connection = connection
        connections.opened(connection)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird allows remote half-closure; a client that stops sending has gone (as curl does when it
        // gives up), so its handler is cancelled at once.
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func finish() {
        guard let connection else { return }
        self.connection = nil
        connections.closed(connection)
    }
}
