package import CurlHTTP
import FeatureService
package import Logging
import FeatureQuerySupport

/// Sends one request of an engine and decodes its answer: within the origin's slot limit, with what the
/// worker's credentials add, retried with backoff (never sooner than `Retry-After`) while the failure is
/// retryable. One transport for every protocol; what differs is in the engine's ``TransportRules``.
///
/// Checking and decoding happen inside the retry loop, because services report transient failures in the body
/// (ArcGIS answers HTTP 200 with `{"error":{"code":500}}`; bodies arrive cut short).
///
/// A class: every query holds its engine's one transport, and a struct of its size was copied into each.
package final class EngineTransport: Sendable {
    package let client: HTTPClient
    package let limiter: HostLimiter
    package let rules: TransportRules
    package let retry: RetrySchedule
    package let logger: Logger
    /// Where exchanges, retries and `Retry-After` waits are counted by host.
    package let metrics: EngineMetrics

    package init(
        client: HTTPClient, limiter: HostLimiter, rules: TransportRules, retry: RetrySchedule, logger: Logger,
        metrics: EngineMetrics
    ) {
        self.client = client
        self.limiter = limiter
        self.rules = rules
        self.retry = retry
        self.logger = logger
        self.metrics = metrics
    }

    /// Fetches `url` (built by `request` with what the credentials add) and decodes the checked answer.
    /// Throws ``FeatureServiceError`` or `CancellationError`.
    ///
    /// Every attempt asks `auth` what the request carries once the host's slot is held. A rejection of the
    /// credentials (``TransportRules/Rejection``) asks the authenticator for a replacement and sends this
    /// request again with it, outside the retry budget; a second rejection (unless its token ran out while the
    /// request waited), or no replacement, fails the layer (``replacement(after:_:applied:replacements:auth:url:layer:)``).
    package func fetch<T: Sendable>(
        _ url: String, origin: String, layer: String, counter: RequestCounter? = nil, auth: QueryAuthentication,
        request: (_ url: String, _ applied: AppliedAuthentication) -> HTTPRequest,
        decode: (HTTPResponse) throws -> T
    ) async throws -> T {
        var attempt = 1
        var replacement: AppliedAuthentication?
        var replacements = 0
        while true {
            try Task.checkCancellation()
            let given = replacement
            replacement = nil
            counter?.countRequest()
            // What the request carried: known once it was sent, kept for a rejection's handling.
            var applied = given ?? .none
            do {
                let sent = try await send(url, origin: origin, layer: layer, replacement: given, auth: auth, request: request)
                applied = sent.applied
                try rules.check(sent.response, layer)
                return try decode(sent.response)
            } catch let error as FeatureServiceError {
                if let rejection = rules.rejection(error) {
                    replacement = try await self.replacement(
                        after: error, rejection, applied: applied, replacements: replacements, auth: auth, url: url, layer: layer)
                    replacements += 1
                    logger.notice(
                        "an \(rules.name) service rejected the credentials; sending the request once more with new ones",
                        metadata: ["layer": "\(layer)", "credential": "\(applied.token?.credential ?? "")"])
                    continue
                }
                guard let delay = retry.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: attempt)
                else { throw auth.redactor.redacting(error) }
                logger.notice(
                    "retrying an \(rules.name) request",
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
    private struct SentRequest {
        var response: HTTPResponse
        var applied: AppliedAuthentication
    }

    /// Sends one attempt; with credentials and ``TransportRules/followsRedirectsWithCredentials``, follows
    /// same-origin redirects (at most ``maxAuthenticatedRedirects``), asking the authenticator again for each
    /// new URL, so a credential scoped to one path never rides a redirect out of it.
    private func send(
        _ url: String, origin: String, layer: String, replacement: AppliedAuthentication?, auth: QueryAuthentication,
        request: (String, AppliedAuthentication) -> HTTPRequest
    ) async throws -> SentRequest {
        var sent = try await sendOnce(url, origin: origin, layer: layer, replacement: replacement, auth: auth, request: request)
        guard rules.followsRedirectsWithCredentials else { return sent }
        var url = url
        var redirects = 0
        while !sent.applied.isEmpty, [301, 302, 303, 307, 308].contains(sent.response.status),
            let location = sent.response.headers["Location"]
        {
            let target = URIReference.resolve(location, against: url)
            guard URIReference.origin(of: target) == URIReference.origin(of: url) else {
                throw FeatureServiceError(
                    .transport,
                    "\(layer) redirected a request that carries credentials to another origin "
                        + "(\(URIReference.origin(of: target) ?? "?")); credentials are not sent there, and the redirect is not followed",
                    layer: layer, httpStatus: sent.response.status)
            }
            redirects += 1
            guard redirects <= Self.maxAuthenticatedRedirects else {
                throw FeatureServiceError(
                    .transport, "\(layer) redirected more than \(Self.maxAuthenticatedRedirects) times", layer: layer,
                    httpStatus: sent.response.status)
            }
            url = target
            sent = try await sendOnce(url, origin: origin, layer: layer, replacement: nil, auth: auth, request: request)
        }
        return sent
    }

    /// Redirects followed for one request that carries credentials (as many as the HTTP client follows for others).
    package static let maxAuthenticatedRedirects = 5

    /// One exchange within the host's slot limit. The credentials are asked for once the slot is held
    /// (`replacement`, after a rejection, is used as it is): a request queued behind the limit picks up the
    /// token current when it leaves the queue, so a revoked token is rejected only for the requests already on
    /// the wire, not for every one queued.
    private func sendOnce(
        _ url: String, origin: String, layer: String, replacement: AppliedAuthentication?, auth: QueryAuthentication,
        request makeRequest: (String, AppliedAuthentication) -> HTTPRequest
    ) async throws -> SentRequest {
        // The clock is read only for the debug line: most workers log above debug.
        let started = logger.logLevel <= .debug ? ContinuousClock.now : nil
        do {
            // The host's slot and the credentials without an `async` call each when they are at hand (a free
            // slot, an authenticator with nothing to add): what `limiter.withSlot` and `auth.authentication`
            // do, without their frames.
            if let waiter = try limiter.admit(host: origin) { try await limiter.wait(host: origin, waiter: waiter) }
            let sent: SentRequest
            let request: HTTPRequest
            do {
                defer { limiter.release(host: origin) }
                let applied: AppliedAuthentication
                if let replacement {
                    applied = replacement
                } else if let immediate = auth.immediateAuthentication(for: url) {
                    applied = immediate
                } else {
                    applied = try await authentication(auth, for: url, layer: layer)
                }
                request = makeRequest(url, applied)
                sent = SentRequest(response: try await metrics.execute(request, on: client, origin: origin), applied: applied)
            }
            if let started {
                logger.debug(
                    "\(rules.name) request",
                    metadata: [
                        "method": "\(request.method)", "url": "\(auth.redactor.redact(request.url))",
                        "status": "\(sent.response.status)", "bytes": "\(sent.response.body.count)",
                        "durationMs": "\((ContinuousClock.now - started).clampedMilliseconds)",
                    ])
            }
            return sent
        } catch let error as HTTPError {
            throw auth.redactor.redacting(
                FeatureServiceError(transfer: error, layer: rules.errorLayer(layer), redact: rules.redactMessage))
        }
    }

    /// What a request to `url` carries; an ``AuthenticationFailure`` becomes the layer's error.
    private func authentication(_ auth: QueryAuthentication, for url: String, layer: String) async throws -> AppliedAuthentication {
        do {
            return try await auth.authentication(for: url)
        } catch let failure as AuthenticationFailure {
            throw FeatureServiceError(failure, layer: layer)
        }
    }
}
