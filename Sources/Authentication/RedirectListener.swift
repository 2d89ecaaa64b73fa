import Credentials
import Hummingbird
import Logging
import ServiceLifecycle

/// `login`'s loopback listener for the OAuth redirect (RFC 8252 §7.3), a small Hummingbird application:
/// it answers the browser's redirect with a page and hands what the redirect carried to the sign-in;
/// anything else (a favicon) is a 404.
struct RedirectListener: Sendable {
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Listens on the redirect's host and port, yielding each redirect to `callbacks`; throws when it can't
    /// listen (the port is in use).
    static func start(
        redirect: LoopbackRedirect, state: String, logger: Logger, callbacks: AsyncStream<RedirectCallback>.Continuation
    ) async throws -> RedirectListener {
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let callback = RedirectCallback(request, redirect: redirect, state: state) else {
                return RedirectCallback.text("Not found\n", status: .notFound)
            }
            // Handed on once the page is out: the sign-in then stops the listener, which must not cut the page.
            let page = callback.page
            return Response(status: page.status, headers: page.headers, body: ResponseBody { writer in
                try await page.body.write(writer)
                callbacks.yield(callback)
            })
        }
        // Hummingbird announces itself at info; `login` says what matters.
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .notice)
        let (listening, listeningSink) = AsyncStream.makeStream(of: Bool.self)
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(redirect.listenHost, port: redirect.port)),
            onServerRunning: { _ in
                listeningSink.yield(true)
                listeningSink.finish()
            },
            logger: serverLogger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: serverLogger))
        let running = Task {
            defer { listeningSink.finish() }
            try await group.run()
        }
        var started = false
        for await up in listening { started = up }
        guard started else {
            running.cancel()
            try await running.value
            throw RedirectListenerStopped()
        }
        return RedirectListener(group: group, running: running)
    }

    /// Stops listening and closes the browser's connections (idle or not: the redirect has been answered),
    /// and returns when stopped. Cancelling, not only a graceful shutdown, which would wait for every
    /// connection a browser or client keeps open to close.
    func shutdown() async {
        await group.triggerGracefulShutdown()
        running.cancel()
        _ = await running.result
    }
}

/// The listener stopped before it was listening, without an error of its own.
private struct RedirectListenerStopped: Error {}
