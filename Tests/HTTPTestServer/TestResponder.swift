package import Hummingbird
package import NIOCore

/// Hummingbird's basic request context, with the channel the request came on, so that a handler can be
/// cancelled when that connection closes.
package struct TestRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The request's connection.
    package let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// Wraps a test's responder: reads the request body whole first (a fake server may read it more than once),
/// answers HEAD with the headers a GET gets and no body, turns a responder's error into a 500 that names it
/// (Hummingbird's own 500 is empty), and cancels the responder when the client closes the connection before the
/// answer is ready (as a real server's work stops when nobody waits for it).
struct TestResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == TestRequestContext {
    let inner: Inner

    func respond(to request: Request, context: TestRequestContext) async throws -> Response {
        var request = request
        _ = try await request.collectBody(upTo: .max)
        let response: Response
        do {
            response = try await answer(request, context: context)
        } catch let error where !(error is CancellationError) && !(error is any HTTPResponseError) {
            response = .text("the handler failed: \(error)\n", status: .internalServerError)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The inner responder's answer, or a `CancellationError` once the request's connection has closed.
    private func answer(_ request: Request, context: TestRequestContext) async throws -> Response {
        try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask { try await inner.respond(to: request, context: context) }
            group.addTask {
                await Self.closed(context.channel)
                return nil
            }
            let first = try await group.next()
            group.cancelAll()
            // Nothing first, or the watcher first: the connection closed while the responder was working.
            guard let first, let response = first else { throw CancellationError() }
            return response
        }
    }

    /// Returns when `channel` closes, or when the calling task is cancelled.
    private static func closed(_ channel: any Channel) async {
        let (closing, sink) = AsyncStream.makeStream(of: Never.self)
        channel.closeFuture.whenComplete { _ in sink.finish() }
        for await _ in closing {}
    }
}
