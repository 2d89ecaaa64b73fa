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
            let headers = LoopbackHeaders(head.headers.map { ($0.name, $0.value) })
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

/// Runs the handler for one request and writes its response, awaiting each write so that a slow reader
/// holds back a streaming body.
struct LoopbackResponder: Sendable {
    let channel: any Channel
    let state: LoopbackServerState

    /// A write failed: the client has gone.
    private struct WriteFailed: Error {}

    /// Returns whether the connection may carry another request.
    func respond(to request: LoopbackRequest, keepAlive: Bool) async -> Bool {
        var response: LoopbackResponse
        do {
            response = try await state.handler(request)
        } catch {
            if Task.isCancelled {
                state.abandoned()
                return false
            }
            state.logger.debug("loopback handler failed", metadata: ["error": "\(error)", "uri": "\(request.uri)"])
            response = .text("the handler failed: \(error)\n", status: 500)
        }
        if Task.isCancelled {
            state.abandoned()
            return false
        }
        let close = !keepAlive || response.headers["Connection"]?.lowercased() == "close"
        do {
            try await write(response, isHead: request.method == "HEAD", close: close)
            state.served()
            return !close
        } catch {
            if error is WriteFailed || Task.isCancelled {
                state.abandoned()
            } else if !(error is LoopbackResponseCutShort) {
                state.logger.debug("loopback body producer failed", metadata: ["error": "\(error)", "uri": "\(request.uri)"])
            }
            return false
        }
    }

    private func write(_ response: LoopbackResponse, isHead: Bool, close: Bool) async throws {
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if close { headers.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        switch response.body {
        case .bytes(let bytes):
            if !headers.contains(name: "Content-Length") { headers.add(name: "Content-Length", value: String(bytes.count)) }
            try await send(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
            if !isHead { try await sendBody(bytes) }
        case .stream(let produce):
            try await send(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
            if !isHead { try await produce(LoopbackBodyWriter { try await sendBody($0) }) }
        }
        try await send(.end(nil))
    }

    private func sendBody(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await send(.body(.byteBuffer(channel.allocator.buffer(bytes: bytes))))
        state.sent(bodyBytes: bytes.count)
    }

    private func send(_ part: HTTPServerResponsePart) async throws {
        do {
            try await channel.writeAndFlush(part).get()
        } catch {
            throw WriteFailed()
        }
    }
}
