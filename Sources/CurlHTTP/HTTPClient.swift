internal import CCurl
import Foundation
package import Logging

/// An HTTP client on libcurl's multi interface: one loop thread per client drives every transfer, so
/// connections, DNS answers and HTTP/2 streams are shared by all the tasks that use the client.
///
/// Cancelling the task that awaits a request aborts its transfer at once (the easy handle is removed from
/// the multi handle and its connection closed) and the call throws `CancellationError`: a superseded query
/// stops using the network immediately.
package final class HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    let loop: CurlMultiLoop
    private let logger: Logger
    /// No proxy variable was set when the client was created: its transfers use no proxy, and URLs with a
    /// query go as ``CurlOriginForm`` (see ``CurlProxyEnvironment`` for why this is decided once).
    private let originFormTargets: Bool

    /// libcurl's global initialisation, once per process, before the first handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    /// Creates a client. Credential files named in the configuration are checked now, and client
    /// certificates opened with their passwords (``HTTPClientCertificate/check()``), so a missing file or a
    /// wrong password is a `credential` error at start, not on the first request.
    ///
    /// With `logger` at `.trace`, libcurl's verbose output is logged there, credentials redacted.
    package convenience init(configuration: HTTPClientConfiguration = HTTPClientConfiguration(), logger: Logger) throws(HTTPError) {
        try self.init(configuration: configuration, logger: logger, originFormTargets: !CurlProxyEnvironment.processMayUseProxy)
    }

    /// A client that sends URLs with a query as ``CurlOriginForm`` (with no proxy), or not: tests compare the
    /// two.
    package init(configuration: HTTPClientConfiguration, logger: Logger, originFormTargets: Bool) throws(HTTPError) {
        _ = Self.globalInit
        for rule in configuration.credentials {
            try RequestValidation.validate(rule)
            try rule.clientCertificate?.check()
        }
        self.configuration = configuration
        self.logger = logger
        self.originFormTargets = originFormTargets
        self.loop = try CurlMultiLoop(configuration: configuration, logger: logger)
    }

    deinit { loop.requestStop() }

    /// The client's loop thread as a task executor. Tasks that prefer it
    /// (`withTaskExecutorPreference(client.taskExecutor) { … }`, or `Task(executorPreference:)`) run on the
    /// loop thread between its turns, as on a NIO event loop: a response resumes its caller there without a
    /// thread hop, and the next request starts without waking the loop. Work that computes for long in such a
    /// task delays every transfer of the client; keep it to request-sized work.
    ///
    /// The client must outlive the tasks that prefer it. After ``shutdown()`` their jobs run on the global
    /// concurrent executor.
    package var taskExecutor: any TaskExecutor { loop }

    /// Sends a request and returns the whole response. Redirects are followed only as the request's (or the
    /// client's) policy allows: within one origin.
    package func execute(_ request: HTTPRequest) async throws -> HTTPResponse {
        let policy = request.options.followRedirects ?? configuration.followRedirects
        var current = request
        var followed = 0
        while true {
            let response = try await perform(current)
            guard case .sameOrigin(let limit) = policy, Self.isRedirect(response.status),
                let location = response.headers["Location"]
            else { return response }
            guard followed < limit else {
                throw HTTPError(code: .redirect, message: "more than \(limit) redirects from \(request.url)")
            }
            current = try redirect(current, to: location, status: response.status)
            followed += 1
        }
    }

    /// The statuses a `sameOrigin` policy follows.
    private static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// Stops the loop thread; requests still running fail with a `shutdown` error.
    package func shutdown() async {
        await loop.shutdown()
    }

    // MARK: Internals

    /// Hands one request's transfer to the loop and waits for its response, cancelling on task cancellation.
    private func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transfer = try makeTransfer(request)
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<HTTPResponse, any Error>) in
                transfer.sink.setWaiter(continuation)
                if !loop.submit(.add(transfer)) {
                    transfer.sink.complete(.failure(HTTPError(code: .shutdown, message: "the HTTP client was shut down")))
                }
            }
        } onCancel: {
            transfer.markCancelled()
            loop.submit(.cancel(transfer))
        }
    }

    private func makeTransfer(_ request: HTTPRequest) throws(HTTPError) -> CurlTransfer {
        let (target, scan) = try RequestValidation.validate(request)
        let options = request.options
        let credential: HTTPCredentialRule?
        if let rule = options.credentials {
            guard rule.matches(request.url, target: target) else {
                throw HTTPError(code: .credential, message: "the request's credentials do not cover \(target.origin)")
            }
            try RequestValidation.validate(rule)
            credential = rule
        } else {
            credential = configuration.credentials.first { $0.matches(request.url, target: target) }
        }
        if let signing = options.awsSigning {
            try signing.validate()
            guard credential?.authentication == nil else {
                throw HTTPError(code: .credential, message: "a request signed for AWS can't also use HTTP authentication (\(target.origin))")
            }
        }
        let settings = CurlTransfer.Settings(
            connectTimeout: options.connectTimeout ?? configuration.connectTimeout,
            timeout: options.timeout ?? configuration.timeout,
            lowSpeedLimit: configuration.lowSpeedLimit,
            maxResponseSize: options.maxResponseSize ?? configuration.maxResponseSize,
            userAgent: configuration.userAgent,
            enableHTTP2: configuration.enableHTTP2,
            dnsCacheTimeout: configuration.dnsCacheTimeout,
            credential: credential,
            connectionPolicy: configuration.connectionPolicy,
            host: target.bareHost,
            isHTTPS: target.scheme == "https",
            verboseLogger: logger.logLevel == .trace ? logger : nil,
            noProxy: originFormTargets,
            // Digest authentication hashes the path and query libcurl parsed: transfers that authenticate keep
            // the whole URL (a rule with only TLS settings does not touch the request line).
            // AWS signing hashes the query libcurl parsed, too.
            originForm: originFormTargets && credential?.authentication == nil && options.awsSigning == nil
                ? scan.flatMap(CurlOriginForm.init) : nil,
            decodesContentEncoding: configuration.decodesContentEncoding
        )
        return CurlTransfer(request: request, settings: settings)
    }

    private func redirect(_ request: HTTPRequest, to location: String, status: Int) throws(HTTPError) -> HTTPRequest {
        guard let base = URL(string: request.url), let resolved = URL(string: location, relativeTo: base)?.absoluteURL else {
            throw HTTPError(code: .redirect, message: "redirect to an unreadable location '\(RequestValidation.printable(location))'")
        }
        let from = try RequestValidation.target(of: request.url)
        let to = try RequestValidation.target(of: resolved.absoluteString)
        guard from == to else {
            throw HTTPError(code: .redirect, message: "redirect from \(from.origin) to another origin \(to.origin) refused")
        }
        var next = request
        next.url = resolved.absoluteString
        if status == 303 || ((status == 301 || status == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.headers = HTTPHeaders(request.headers.fields.filter { $0.name.lowercased() != "content-type" }.map { ($0.name, $0.value) })
        }
        return next
    }
}
