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

    init(client: HTTPClient, limiter: HostLimiter, configuration: OGCEngineConfiguration, logger: Logger) {
        self.client = client
        self.limiter = limiter
        self.configuration = configuration
        self.logger = logger
    }

    /// Fetches `url` and decodes the 2xx answer. Throws ``FeatureServiceError`` or `CancellationError`.
    func fetch<T: Sendable>(
        _ url: String, layer: String, accept: String = OGCTransport.acceptJSON, maxResponseSize: Int? = nil,
        decode: (HTTPResponse) throws(FeatureServiceError) -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            try Task.checkCancellation()
            do {
                let response = try await send(url, layer: layer, accept: accept, maxResponseSize: maxResponseSize)
                try OGCResponse.checkStatus(response, layer: layer)
                return try decode(response)
            } catch let error as FeatureServiceError {
                guard let delay = configuration.retry.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: attempt)
                else { throw error }
                logger.notice(
                    "retrying an OGC API request",
                    metadata: [
                        "layer": "\(layer)", "attempt": "\(attempt + 1)", "error.code": "\(error.code)",
                        "error.message": "\(error.message)", "delayMs": "\(delay.clampedMilliseconds)",
                    ])
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }

    private func send(_ url: String, layer: String, accept: String, maxResponseSize: Int?) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url, headers: ["Accept": accept])
        request.options.timeout = configuration.requestTimeout
        // Servers redirect (`/collections` to `/collections/`); within the origin only, as `next` links are.
        request.options.followRedirects = .sameOrigin(maxRedirects: 5)
        request.options.maxResponseSize = maxResponseSize
        let origin = URIReference.origin(of: url) ?? url
        do {
            let response = try await limiter.withSlot(host: origin) { try await client.execute(request) }
            logger.debug(
                "OGC API request",
                metadata: ["url": "\(url)", "status": "\(response.status)", "bytes": "\(response.body.count)"])
            return response
        } catch let error as HTTPError {
            throw Self.transportError(error, layer: layer)
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
