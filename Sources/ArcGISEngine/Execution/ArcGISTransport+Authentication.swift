import EngineExecution
import Logging

/// How the transport asks the worker's credentials what a request carries, and what it does when the service
/// rejects them (issue 13): one refresh and one retry of the rejected request, never a restart of the layer.
extension ArcGISTransport {
    /// What a request to `endpoint` carries; an ``AuthenticationFailure`` becomes the layer's error.
    static func authentication(_ auth: QueryAuthentication, for endpoint: String, layer: String) async throws -> AppliedAuthentication {
        do {
            return try await auth.authentication(for: endpoint)
        } catch let failure as AuthenticationFailure {
            throw ArcGISError(failure, layer: layer)
        }
    }

    /// The service code of a token rejection: 498 (invalid or expired token) or 499 (token required), from an
    /// error body (HTTP 200 or not, REST or admin shape) or from a bare HTTP status; nil for anything else
    /// (403 included: it is never refreshed).
    static func rejectionCode(_ error: ArcGISError) -> Int? {
        if let code = error.serviceCode { return code == 498 || code == 499 ? code : nil }
        if let status = error.httpStatus, status == 498 || status == 499 { return status }
        return nil
    }

    /// The layer's error for an HTTP 401 without an ArcGIS error body (web-tier authentication in front of the
    /// service, which tokens do not refresh): `authentication_required` when the request carried nothing,
    /// `credential_rejected` when it carried credentials the server refused.
    static func unauthorized(
        _ error: ArcGISError, applied: AppliedAuthentication, auth: QueryAuthentication, layer: String
    ) -> ArcGISError {
        let layer = ArcGISResponse.normalizedURL(layer)
        if applied.isEmpty {
            return ArcGISError(
                .authenticationRequired,
                "\(layer) requires authentication (HTTP 401) and no credential covers it: add a credential whose scope "
                    + "covers the URL to the worker's credentials file, or name one in the request",
                layer: layer, httpStatus: 401, details: auth.redactor.redact(error.details))
        }
        let which = (applied.token?.credential ?? auth.credential ?? applied.cacheIdentity).map { "the credential \"\($0)\"" }
            ?? "the credential that covers it"
        return ArcGISError(
            .credentialRejected, "\(layer) refused \(which) (HTTP 401): check the credential and its access to the service",
            layer: layer, httpStatus: 401, details: auth.redactor.redact(error.details))
    }

    /// What to send on the one retry after `error` rejected `applied`, or the layer's error:
    /// `authentication_required` when no token was sent, `credential_rejected` on a second rejection or when the
    /// authenticator has nothing new, and the authenticator's own failure (`credential_expired` for an API key)
    /// as it throws it.
    func rejection(
        _ error: ArcGISError, serviceCode: Int, applied: AppliedAuthentication, refreshed: Bool, auth: QueryAuthentication,
        endpoint: String, layer: String
    ) async throws -> AppliedAuthentication {
        let layer = ArcGISResponse.normalizedURL(layer)
        func failure(_ code: AuthenticationFailure.Code, _ text: String) -> ArcGISError {
            ArcGISError(
                ArcGISError.Code(code.rawValue), text, layer: layer, httpStatus: error.httpStatus, serviceCode: serviceCode,
                details: auth.redactor.redact(error.details))
        }
        guard let token = applied.token else {
            throw failure(
                .authenticationRequired,
                "\(layer) requires a token (ArcGIS error \(serviceCode)) and no credential covers it: add a credential "
                    + "whose scope covers the URL to the worker's credentials file, or name one in the request")
        }
        guard !refreshed else {
            throw failure(
                .credentialRejected,
                "\(layer) rejected the token of the credential \"\(token.credential)\" again (ArcGIS error \(serviceCode)) "
                    + "right after it was replaced: check that the credential's account may use this service")
        }
        let next: AppliedAuthentication?
        do {
            next = try await auth.rejected(applied, serviceCode: serviceCode, for: endpoint)
        } catch let failure as AuthenticationFailure {
            var mapped = ArcGISError(failure, layer: layer)
            mapped.httpStatus = error.httpStatus
            mapped.serviceCode = serviceCode
            throw mapped
        }
        guard let next else {
            throw failure(
                .credentialRejected,
                "\(layer) rejected the token of the credential \"\(token.credential)\" (ArcGIS error \(serviceCode)) "
                    + "and no new one can be obtained: check the credential")
        }
        return next
    }
}

extension ArcGISError {
    /// The layer's error for a credentials failure: its code, message and retryability as the authenticator
    /// said them.
    init(_ failure: AuthenticationFailure, layer: String) {
        self.init(Code(failure.code.rawValue), failure.message, layer: layer, isRetryable: failure.isRetryable)
    }
}

extension ParameterRedactor {
    /// `error` with every secret query parameter value in its message and details redacted.
    func redacting(_ error: ArcGISError) -> ArcGISError {
        guard !isEmpty else { return error }
        var error = error
        error.message = redact(error.message)
        error.details = redact(error.details)
        return error
    }
}

/// One query's requests: the engine's transport with the credentials the query uses. Runners hold this, so
/// every request they send (ids, counts, pages, id chunks) asks the authenticator for its own URL.
struct ArcGISSession: Sendable {
    let transport: ArcGISTransport
    let auth: QueryAuthentication

    var logger: Logger { transport.logger }

    /// ``ArcGISTransport/fetch(_:origin:parameters:layer:counter:auth:decode:)`` with this query's credentials.
    func fetch<T: Sendable>(
        _ endpoint: String, origin: String, parameters: QueryParameters, layer: String, counter: RequestCounter?,
        decode: ([UInt8]) throws(ArcGISError) -> T
    ) async throws -> T {
        try await transport.fetch(
            endpoint, origin: origin, parameters: parameters, layer: layer, counter: counter, auth: auth, decode: decode)
    }
}
