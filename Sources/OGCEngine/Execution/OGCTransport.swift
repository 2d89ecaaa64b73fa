import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import FeatureService
import Logging

/// Sends one OGC API request and decodes its answer: within the origin's slot limit, retried with backoff
/// (and never sooner than `Retry-After`) while the failure is retryable. Decoding runs inside the retry loop,
/// so a body cut short is fetched again like a 503.
final class OGCTransport: Sendable {
    /// What OGC API Features asks for JSON data: GeoJSON first, plain JSON accepted (pygeoapi answers it).
    static let acceptJSON = "application/geo+json, application/json;q=0.9"

    let client: HTTPClient
    let limiter: HostLimiter
    let configuration: OGCEngineConfiguration
    let logger: Logger
    /// Where exchanges, retries and `Retry-After` waits are counted by host.
    let metrics: EngineMetrics

    init(
        client: HTTPClient, limiter: HostLimiter, configuration: OGCEngineConfiguration, logger: Logger,
        metrics: EngineMetrics
    ) {
        self.client = client
        self.limiter = limiter
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    /// Fetches `url` and decodes the 2xx answer. Throws ``FeatureServiceError`` or `CancellationError`.
    ///
    /// Every attempt first asks `auth` what the request carries for `url` (a `next` link or a tile asks for its
    /// own URL). A 401 to a request that carried a token asks the authenticator once for a replacement and
    /// sends this request again, outside the retry budget (``OGCTransport/rejection(_:applied:refreshed:auth:url:layer:)``);
    /// a 403 is never refreshed.
    func fetch<T: Sendable>(
        _ url: String, layer: String, accept: String = OGCTransport.acceptJSON, maxResponseSize: Int? = nil,
        auth: QueryAuthentication, decode: (HTTPResponse) throws(FeatureServiceError) -> T
    ) async throws -> T {
        var attempt = 1
        var replacement: AppliedAuthentication?
        var refreshed = false
        while true {
            try Task.checkCancellation()
            let applied: AppliedAuthentication
            if let replacement {
                applied = replacement
            } else {
                applied = try await Self.authentication(auth, for: url, layer: layer)
            }
            replacement = nil
            var sent = applied
            do {
                let (response, used) = try await send(
                    url, applied: applied, auth: auth, layer: layer, accept: accept, maxResponseSize: maxResponseSize)
                sent = used
                try OGCResponse.checkStatus(response, layer: layer)
                return try decode(response)
            } catch let error as FeatureServiceError {
                if error.httpStatus == 401 {
                    replacement = try await rejection(error, applied: sent, refreshed: refreshed, auth: auth, url: url, layer: layer)
                    refreshed = true
                    logger.notice(
                        "an OGC API server refused the credentials; sending the request once more with new ones",
                        metadata: ["layer": "\(layer)", "credential": "\(sent.token?.credential ?? "")"])
                    continue
                }
                guard let delay = configuration.retry.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: attempt)
                else { throw auth.redactor.redacting(error) }
                logger.notice(
                    "retrying an OGC API request",
                    metadata: [
                        "layer": "\(layer)", "attempt": "\(attempt + 1)", "error.code": "\(error.code)",
                        "error.message": "\(auth.redactor.redact(error.message))", "delayMs": "\(delay.clampedMilliseconds)",
                    ])
                metrics.host(URIReference.origin(of: url) ?? url).retried(delay: delay, retryAfter: error.retryAfter)
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }

    /// Sends one request with what `applied` adds. A request without credentials lets the HTTP client follow
    /// same-origin redirects; one with credentials follows them here (same origin only, at most
    /// ``maxAuthenticatedRedirects``), asking the authenticator again for each new URL, so a credential scoped
    /// to one path never rides a redirect out of it. Answers the response and what the last request carried.
    private func send(
        _ url: String, applied: AppliedAuthentication, auth: QueryAuthentication, layer: String, accept: String,
        maxResponseSize: Int?
    ) async throws -> (HTTPResponse, AppliedAuthentication) {
        var url = url
        var applied = applied
        var redirects = 0
        while true {
            let response = try await sendOnce(
                url, applied: applied, auth: auth, layer: layer, accept: accept, maxResponseSize: maxResponseSize)
            guard !applied.isEmpty, [301, 302, 303, 307, 308].contains(response.status),
                let location = response.headers["Location"]
            else { return (response, applied) }
            let target = URIReference.resolve(location, against: url)
            guard URIReference.origin(of: target) == URIReference.origin(of: url) else {
                throw FeatureServiceError(
                    .transport,
                    "\(layer) redirected a request that carries credentials to another origin "
                        + "(\(URIReference.origin(of: target) ?? "?")); credentials are not sent there, and the redirect is not followed",
                    layer: layer, httpStatus: response.status)
            }
            redirects += 1
            guard redirects <= Self.maxAuthenticatedRedirects else {
                throw FeatureServiceError(
                    .transport, "\(layer) redirected more than \(Self.maxAuthenticatedRedirects) times", layer: layer,
                    httpStatus: response.status)
            }
            url = target
            applied = try await Self.authentication(auth, for: url, layer: layer)
        }
    }

    /// Redirects followed for one request that carries credentials (as many as the HTTP client follows for others).
    static let maxAuthenticatedRedirects = 5

    private func sendOnce(
        _ url: String, applied: AppliedAuthentication, auth: QueryAuthentication, layer: String, accept: String,
        maxResponseSize: Int?
    ) async throws -> HTTPResponse {
        var request = applied.applied(to: HTTPRequest(url: URLParameters.setting(applied.parameters, in: url), headers: ["Accept": accept]))
        request.options.timeout = configuration.requestTimeout
        // Servers redirect (`/collections` to `/collections/`); within the origin only, as `next` links are. A
        // request with credentials follows them in ``send(_:applied:auth:layer:accept:maxResponseSize:)``.
        request.options.followRedirects = applied.isEmpty ? .sameOrigin(maxRedirects: 5) : .never
        request.options.maxResponseSize = maxResponseSize
        let origin = URIReference.origin(of: url) ?? url
        do {
            let response = try await limiter.withSlot(host: origin) { try await metrics.execute(request, on: client, origin: origin) }
            if logger.logLevel <= .debug {
                logger.debug(
                    "OGC API request",
                    metadata: ["url": "\(auth.redactor.redact(request.url))", "status": "\(response.status)", "bytes": "\(response.body.count)"])
            }
            return response
        } catch let error as HTTPError {
            throw auth.redactor.redacting(Self.transportError(error, layer: layer))
        }
    }

    /// The error for a transfer that failed below HTTP.
    static func transportError(_ error: HTTPError, layer: String) -> FeatureServiceError {
        var details = ["http error: \(error.code.rawValue)"]
        if let curlCode = error.curlCode {
            details.append("curl code \(curlCode)\(error.curlMessage.map { ": \($0)" } ?? "")")
        }
        switch error.code {
        case .cancelled:
            return FeatureServiceError(.cancelled, "the request to \(layer) was cancelled", layer: layer, details: details)
        case .tooLarge:
            return FeatureServiceError(
                .limitExceeded, "the response from \(layer) is larger than the HTTP client allows: \(error.message)",
                layer: layer, details: details)
        default:
            return FeatureServiceError(
                .transport, "the request to \(layer) failed before an HTTP answer arrived: \(error.message)", layer: layer,
                isRetryable: error.isRetryable, details: details)
        }
    }
}
