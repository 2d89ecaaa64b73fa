import Logging
internal import NIOCore
internal import NIOHTTP1

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
            state.logger.debug("loopback handler failed", metadata: ["error": "\(error)", "path": "\(request.path)"])
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
                state.logger.debug("loopback body producer failed", metadata: ["error": "\(error)", "path": "\(request.path)"])
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
            // One hop to the event loop and one flush for head, body and end: the client can't finish (and
            // close) between them, and a small response costs one wake-up of the loop, not three.
            let head = HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))
            let body: HTTPServerResponsePart? = isHead || bytes.isEmpty ? nil : .body(.byteBuffer(channel.allocator.buffer(bytes: bytes)))
            let channel = self.channel
            let written = channel.eventLoop.flatSubmit {
                channel.write(head, promise: nil)
                if let body { channel.write(body, promise: nil) }
                return channel.writeAndFlush(HTTPServerResponsePart.end(nil))
            }
            do {
                try await written.get()
            } catch {
                throw WriteFailed()
            }
            if !isHead { state.sent(bodyBytes: bytes.count) }
        case .stream(let produce):
            let head = HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))
            if isHead {
                channel.write(head, promise: nil)
                try await send(.end(nil))
                return
            }
            try await send(head)
            try await produce(LoopbackBodyWriter { try await sendBody($0) })
            do {
                try await send(.end(nil))
            } catch {
                // With Content-Length the body is complete once its bytes are out (`.end` adds nothing on
                // the wire), and the client may already have closed. A chunked body needs its last chunk.
                if !headers.contains(name: "Content-Length") { throw error }
            }
        }
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
