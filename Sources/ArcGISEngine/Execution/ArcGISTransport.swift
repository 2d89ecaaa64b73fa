import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import Logging

/// Sends one ArcGIS request and decodes its answer: GET or POST by length, within the host's slot limit,
/// retried with backoff while the failure is retryable.
///
/// Decoding happens inside the retry loop because ArcGIS reports many transient failures in the body (HTTP
/// 200 with `{"error":{"code":500}}`, bodies cut short).
///
/// A class: every query holds the engine's one transport, and a struct of its size (the configuration, a
/// logger) was copied, field by field, into each of them.
final class ArcGISTransport: Sendable {
    let client: HTTPClient
    let limiter: HostLimiter
    let configuration: ArcGISEngineConfiguration
    let logger: Logger

    init(client: HTTPClient, limiter: HostLimiter, configuration: ArcGISEngineConfiguration, logger: Logger) {
        self.client = client
        self.limiter = limiter
        self.configuration = configuration
        self.logger = logger
    }

    /// Fetches `endpoint` (a layer or service URL, or `…/query`) with `parameters` and decodes the body.
    /// Throws ``ArcGISError`` or `CancellationError`.
    func fetch<T: Sendable>(
        _ endpoint: String, origin: String, parameters: QueryParameters, layer: String, counter: RequestCounter?,
        decode: ([UInt8]) throws(ArcGISError) -> T
    ) async throws -> T {
        let backoff = RetryBackoff(policy: configuration.retry)
        var attempt = 1
        while true {
            try Task.checkCancellation()
            counter?.countRequest()
            do {
                let response = try await send(endpoint, origin: origin, parameters: parameters, layer: layer)
                try ArcGISResponse.checkStatus(response.status, headers: response.headers, body: response.body, layer: layer)
                return try decode(response.body)
            } catch let error as ArcGISError {
                guard let delay = backoff.delay(afterFailure: error, retry: attempt) else { throw error }
                logger.notice(
                    "retrying an ArcGIS request",
                    metadata: [
                        "layer": "\(layer)", "attempt": "\(attempt + 1)", "error.code": "\(error.code)",
                        "error.message": "\(error.message)", "delayMs": "\(delay.clampedMilliseconds)",
                    ])
                counter?.countRetry()
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }

    private func send(_ endpoint: String, origin: String, parameters: QueryParameters, layer: String) async throws -> HTTPResponse {
        var request = parameters.request(endpoint: endpoint, maxGETURLLength: configuration.maxGETURLLength)
        request.options.timeout = configuration.requestTimeout
        // The clock is read only for the debug line: most workers log above debug.
        let started = logger.logLevel <= .debug ? ContinuousClock.now : nil
        do {
            let response = try await limiter.withSlot(host: origin) { try await client.execute(request) }
            if let started {
                logger.debug(
                    "ArcGIS request",
                    metadata: [
                        "method": "\(request.method)", "endpoint": "\(endpoint)", "status": "\(response.status)",
                        "bytes": "\(response.body.count)", "durationMs": "\((ContinuousClock.now - started).clampedMilliseconds)",
                    ])
            }
            return response
        } catch let error as HTTPError {
            throw ArcGISResponse.transportError(error, layer: layer)
        }
    }
}
