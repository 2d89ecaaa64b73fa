import Hummingbird
import Logging
import NIOCore

/// Hummingbird's request context, with the channel the request came on (to find its ``SampleConnection``).
struct SampleRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// Reads each request whole and runs the sample server's handler so that the client going away cancels it.
/// A HEAD request gets the GET response's head without its body.
struct SampleResponder: HTTPResponder {
    let handler: SampleHTTPServer.Handler
    let connections: SampleConnections
    let logger: Logger

    func respond(to request: Request, context: SampleRequestContext) async throws -> Response {
        let sampleRequest = try await SampleRequest(request)
        let connection = connections.connection(for: context.channel)
        let handler = self.handler
        let response: Response
        do {
            response = try await connection.run { try await handler(sampleRequest) }
        } catch {
            // The client has gone: nothing will be written.
            if Task.isCancelled || connection.isClosed { throw CancellationError() }
            logger.debug("sample server handler failed", metadata: ["error": "\(error)", "path": "\(sampleRequest.path)"])
            return .text("the handler failed: \(error)\n", status: 500)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }
}
