internal import NIOCore
internal import NIOHTTP1

/// Reads whole requests off one connection and answers them one at a time, in order.
///
/// Reading never stops while a handler works, so a client that closes its connection is noticed at
/// once: the running handler's task is cancelled. Event-loop state only; the response is written from
/// a task by ``LoopbackResponder``, which reports back here when it is done.
final class LoopbackConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Pending {
        var request: LoopbackRequest
        var keepAlive: Bool
    }

    private let state: LoopbackServerState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var pending: [Pending] = []
    private var responding: Task<Void, Never>?
    private var closing = false

    init(state: LoopbackServerState) {
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        state.opened(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        responding?.cancel()
        responding = nil
        pending.removeAll()
        state.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return }
            self.head = nil
            // Optional white space around a value is not part of it (RFC 9110, 5.5); the parser keeps the trailing part.
            let headers = LoopbackHeaders(head.headers.map { ($0.name, $0.value.trimmingOptionalWhitespace()) })
            let request = LoopbackRequest(method: head.method.rawValue, uri: head.uri, headers: headers, body: body)
            body = []
            pending.append(Pending(request: request, keepAlive: head.isKeepAlive))
            state.received()
            startNext(on: context.channel)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // I/O errors (a reset from the client) end the connection; channelInactive does the rest.
        context.close(promise: nil)
    }

    private func startNext(on channel: any Channel) {
        guard responding == nil, !closing, !pending.isEmpty else { return }
        let next = pending.removeFirst()
        let responder = LoopbackResponder(channel: channel, state: state)
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        responding = Task {
            let reusable = await responder.respond(to: next.request, keepAlive: next.keepAlive)
            channel.eventLoop.execute { handler.value.finished(reusable: reusable, channel: channel) }
        }
    }

    private func finished(reusable: Bool, channel: any Channel) {
        responding = nil
        guard reusable else {
            closing = true
            channel.close(promise: nil)
            return
        }
        startNext(on: channel)
    }
}
