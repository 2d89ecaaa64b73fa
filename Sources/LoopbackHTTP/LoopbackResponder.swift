import Hummingbird
import Logging
internal import NIOCore

/// Hummingbird's request context, with the channel the request came on (to find its ``LoopbackConnection``).
struct LoopbackRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// Runs the server's handler for each Hummingbird request: reads the body whole into a ``LoopbackRequest``,
/// runs the handler so that a client going away cancels it, and turns the ``LoopbackResponse`` into
/// Hummingbird's.
struct LoopbackResponder: HTTPResponder {
    let handler: LoopbackHTTPServer.Handler
    let state: LoopbackServerState

    func respond(to request: Request, context: LoopbackRequestContext) async throws -> Response {
        let loopbackRequest = try await LoopbackRequest(request)
        // No connection: the client closed it before this responder ran (Hummingbird's task for the connection
        // can start late on a busy machine; the observer counted the response abandoned). The handler still
        // sees the request, already cancelled, as it would have had it started first: the sample server logs
        // the request and counts it aborted.
        let connection = state.connection(for: context.channel) ?? LoopbackConnection(closed: context.channel)
        let response: LoopbackResponse
        do {
            response = try await connection.run(loopbackRequest, with: handler)
        } catch {
            // The client has gone: nothing will be written (the connection counts the response abandoned).
            if Task.isCancelled || connection.isClosed { throw CancellationError() }
            state.logger.debug("loopback handler failed", metadata: ["error": "\(error)", "path": "\(loopbackRequest.path)"])
            return LoopbackResponse.text("the handler failed: \(error)\n", status: 500)
                .hummingbirdResponse(isHead: false, connection: connection, logger: state.logger, path: loopbackRequest.path)
        }
        return response.hummingbirdResponse(
            isHead: loopbackRequest.method == "HEAD", connection: connection, logger: state.logger, path: loopbackRequest.path)
    }
}

extension LoopbackRequest {
    /// The request as the handler sees it: `Host` first (Hummingbird keeps it apart, as the authority), then
    /// the other fields in order, and the whole body.
    init(_ request: Request) async throws {
        var request = request
        var fields: [(String, String)] = []
        fields.reserveCapacity(request.headers.count + 1)
        if let authority = request.head.authority { fields.append(("Host", authority)) }
        for field in request.headers {
            // Optional white space around a value is not part of it (RFC 9110, 5.5).
            fields.append((field.name.rawName, field.value.trimmingOptionalWhitespace()))
        }
        let body = try await request.collectBody(upTo: .max)
        self.init(
            method: request.method.rawValue, uri: request.head.path ?? "/", headers: LoopbackHeaders(fields),
            body: Array(body.readableBytesView))
    }
}
