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
    /// Where exchanges, retries and `Retry-After` waits are counted by host.
    let metrics: EngineMetrics

    init(
        client: HTTPClient, limiter: HostLimiter, configuration: ArcGISEngineConfiguration, logger: Logger,
        metrics: EngineMetrics
    ) {
        self.client = client
        self.limiter = limiter
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    /// Fetches `endpoint` (a layer or service URL, or `…/query`) with `parameters` and decodes the body.
    /// Throws ``ArcGISError`` or `CancellationError`.
    ///
    /// Every attempt first asks `auth` what the request carries. A 498 or 499 (an error body with HTTP 200,
    /// the real status, or the admin shape) on a request that carried a token asks the authenticator once for
    /// a replacement and sends this request again with it, outside the retry budget; a second rejection, or
    /// no replacement, fails the layer (``ArcGISTransport/rejection(_:applied:refreshed:auth:endpoint:layer:)``).
    /// A 403 is never refreshed.
    func fetch<T: Sendable>(
        _ endpoint: String, origin: String, parameters: QueryParameters, layer: String, counter: RequestCounter?,
        auth: QueryAuthentication, decode: ([UInt8]) throws(ArcGISError) -> T
    ) async throws -> T {
        let backoff = RetryBackoff(policy: configuration.retry)
        var attempt = 1
        var replacement: AppliedAuthentication?
        var refreshed = false
        while true {
            try Task.checkCancellation()
            let given = replacement
            replacement = nil
            counter?.countRequest()
            // What the request carried: known once it was sent (see `send`), kept for a rejection's handling.
            var applied = given ?? .none
            do {
                let sent = try await send(endpoint, origin: origin, parameters: parameters, replacement: given, auth: auth, layer: layer)
                applied = sent.applied
                let response = sent.response
                try ArcGISResponse.checkStatus(response.status, headers: response.headers, body: response.body, layer: layer)
                return try decode(response.body)
            } catch let error as ArcGISError {
                if error.httpStatus == 401, error.serviceCode == nil {
                    throw Self.unauthorized(error, applied: applied, auth: auth, layer: layer)
                }
                if let serviceCode = Self.rejectionCode(error) {
                    replacement = try await rejection(
                        error, serviceCode: serviceCode, applied: applied, refreshed: refreshed, auth: auth,
                        endpoint: endpoint, layer: layer)
                    refreshed = true
                    logger.notice(
                        "an ArcGIS service rejected a token; sending the request once more with a new one",
                        metadata: ["layer": "\(layer)", "serviceCode": "\(serviceCode)", "credential": "\(applied.token?.credential ?? "")"])
                    continue
                }
                guard let delay = backoff.delay(afterFailure: error, retry: attempt) else { throw auth.redactor.redacting(error) }
                logger.notice(
                    "retrying an ArcGIS request",
                    metadata: [
                        "layer": "\(layer)", "attempt": "\(attempt + 1)", "error.code": "\(error.code)",
                        "error.message": "\(auth.redactor.redact(error.message))", "delayMs": "\(delay.clampedMilliseconds)",
                    ])
                counter?.countRetry()
                metrics.host(origin).retried(delay: delay, retryAfter: error.retryAfter)
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }

    /// A response and the credentials its request carried.
    struct SentRequest: Sendable {
        var response: HTTPResponse
        var applied: AppliedAuthentication
        var method: HTTPRequest.Method
    }

    /// Sends one attempt within the host's slot limit. The credentials are asked for once the slot is held
    /// (`replacement`, after a rejection, is used as it is): a request queued behind the limit picks up the
    /// token current when it leaves the queue, so a revoked token is rejected only for the requests already on
    /// the wire, not for every one queued.
    private func send(
        _ endpoint: String, origin: String, parameters: QueryParameters, replacement: AppliedAuthentication?,
        auth: QueryAuthentication, layer: String
    ) async throws -> SentRequest {
        // The clock is read only for the debug line: most workers log above debug.
        let started = logger.logLevel <= .debug ? ContinuousClock.now : nil
        do {
            // The host's slot and the credentials without an `async` call each when they are at hand (a free
            // slot, an authenticator with nothing to add): what `limiter.withSlot` and `auth.authentication`
            // do, without their frames.
            if let waiter = try limiter.admit(host: origin) { try await limiter.wait(host: origin, waiter: waiter) }
            let sent: SentRequest
            do {
                defer { limiter.release(host: origin) }
                let applied: AppliedAuthentication
                if let replacement {
                    applied = replacement
                } else if let immediate = auth.immediateAuthentication(for: endpoint) {
                    applied = immediate
                } else {
                    applied = try await Self.authentication(auth, for: endpoint, layer: layer)
                }
                let request = makeRequest(endpoint, parameters: parameters, applied: applied)
                sent = SentRequest(
                    response: try await metrics.execute(request, on: client, origin: origin), applied: applied, method: request.method)
            }
            let response = sent.response
            if let started {
                logger.debug(
                    "ArcGIS request",
                    metadata: [
                        "method": "\(sent.method)", "endpoint": "\(endpoint)", "status": "\(response.status)",
                        "bytes": "\(response.body.count)", "durationMs": "\((ContinuousClock.now - started).clampedMilliseconds)",
                    ])
            }
            return sent
        } catch let error as HTTPError {
            throw auth.redactor.redacting(ArcGISResponse.transportError(error, layer: layer))
        }
    }

    /// The request for one attempt: the parameters (an API key's among them), the credentials' headers and
    /// network rule, the timeout.
    private func makeRequest(_ endpoint: String, parameters: QueryParameters, applied: AppliedAuthentication) -> HTTPRequest {
        var parameters = parameters
        for field in applied.parameters { parameters.append(field.name, field.value) }
        var request = applied.applied(to: parameters.request(endpoint: endpoint, maxGETURLLength: configuration.maxGETURLLength))
        request.options.timeout = configuration.requestTimeout
        // A request that carries credentials follows no redirect: ArcGIS REST services do not redirect their
        // queries, and a credential must not ride one to a URL its scope was not checked against.
        if !applied.isEmpty { request.options.followRedirects = .never }
        return request
    }
}
