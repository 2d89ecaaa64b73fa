internal import NIOCore
internal import NIOHTTP1

/// Watches one connection between the HTTP/1.1 codec and Hummingbird, for what Hummingbird leaves to the
/// application: the ``LoopbackHTTPServer/Statistics`` counters, cancelling the handler when the client goes
/// away, and closing the connection after a response that says `Connection: close` (or answers a request
/// that did not ask to keep the connection alive).
///
/// Event-loop state only. Sits right after NIO's request decoder, so it sees NIOHTTP1's parts, which still
/// carry the request's HTTP version and keep-alive wish.
final class LoopbackConnectionObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: LoopbackServerState
    private var connection: LoopbackConnection?
    /// For each request whose response head is not written yet, in order: whether it allows keep-alive.
    private var keepAlive: [Bool] = []
    /// Requests read whole whose response is not written completely yet.
    private var owed = 0
    private var closeAfterResponse = false
    private var announcedLength: Int?
    /// The current response's head is out, and this many of its body bytes.
    private var headWritten = false
    private var bodyBytesWritten = 0

    init(state: LoopbackServerState) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let connection = LoopbackConnection(channel: context.channel)
        self.connection = connection
        state.opened(connection)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird allows remote half-closure; a client that stops sending has gone, as it did for the
        // hand-written server, so its handler is cancelled at once.
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive.append(head.isKeepAlive)
        case .body:
            break
        case .end:
            owed += 1
            state.received()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if !(keepAlive.isEmpty ? true : keepAlive.removeFirst()) {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            }
            closeAfterResponse = head.headers["Connection"].contains { $0.lowercased() == "close" }
            announcedLength = head.headers.first(name: "Content-Length").flatMap { Int($0) }
            headWritten = false
            bodyBytesWritten = 0
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenSuccess { self.headWritten = true }
            context.write(wrapOutboundOut(.head(head)), promise: written)
        case .body(let body):
            let count = body.readableBytes
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenSuccess {
                self.bodyBytesWritten += count
                self.state.sent(bodyBytes: count)
            }
            context.write(data, promise: written)
        case .end:
            let close = closeAfterResponse
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenComplete { result in
                // With Content-Length the body is complete once its bytes are out (the end adds nothing on
                // the wire), and the client may already have closed.
                let complete = self.headWritten && self.announcedLength == self.bodyBytesWritten
                if case .success = result {
                    self.answered()
                } else if complete {
                    self.answered()
                }
                if close { context.close(promise: nil) }
            }
            context.write(data, promise: written)
        }
    }

    private func answered() {
        guard owed > 0 else { return }  // Hummingbird's own 400 for a request it could not parse
        owed -= 1
        state.served()
    }

    private func finish() {
        guard let connection else { return }
        self.connection = nil
        connection.closed()
        state.closed(connection, abandoned: owed > 0 && !connection.wasClosedOnPurpose)
    }
}
