import EngineExecution
import CurlHTTP
import FeatureService
import Logging

/// How the OGC transport asks the worker's credentials what a request carries, and what a 401 does: one
/// refresh and one retry of the refused request (a page, never the whole `next` chain again).
extension OGCTransport {
    /// What a request to `url` carries; an ``AuthenticationFailure`` becomes the layer's error.
    static func authentication(_ auth: QueryAuthentication, for url: String, layer: String) async throws -> AppliedAuthentication {
        do {
            return try await auth.authentication(for: url)
        } catch let failure as AuthenticationFailure {
            throw FeatureServiceError(failure, layer: layer)
        }
    }

    /// What to send on the one retry after a 401 refused `applied`, or the layer's error:
    /// `authentication_required` when nothing was sent, `credential_rejected` when what was sent holds no token
    /// to replace (HTTP authentication, a certificate), on a second 401, or when the authenticator has nothing
    /// new; the authenticator's own failure (`credential_expired` for an API key) as it throws it. The
    /// authenticator is told service code 498: the server refused what was sent.
    func rejection(
        _ error: FeatureServiceError, applied: AppliedAuthentication, refreshed: Bool, auth: QueryAuthentication,
        url: String, layer: String
    ) async throws -> AppliedAuthentication {
        func failure(_ code: AuthenticationFailure.Code, _ text: String) -> FeatureServiceError {
            FeatureServiceError(
                FeatureServiceError.Code(code.rawValue), text, layer: layer, httpStatus: error.httpStatus,
                details: auth.redactor.redact(error.details))
        }
        guard !applied.isEmpty else {
            throw failure(
                .authenticationRequired,
                "\(layer) requires credentials (HTTP 401) and none covers it: add a credential whose scope covers the "
                    + "URL to the worker's credentials file, or name one in the request")
        }
        let name = applied.token?.credential ?? auth.credential ?? applied.cacheIdentity
        let which = name.map { "the credential \"\($0)\"" } ?? "the credential that covers it"
        guard let token = applied.token, !refreshed else {
            throw failure(
                .credentialRejected,
                "\(layer) refused \(which) (HTTP 401)\(refreshed ? " again right after it was replaced" : ""): check the "
                    + "credential and its access to this service")
        }
        let next: AppliedAuthentication?
        do {
            next = try await auth.rejected(applied, serviceCode: 498, for: url)
        } catch let failure as AuthenticationFailure {
            var mapped = FeatureServiceError(failure, layer: layer)
            mapped.httpStatus = error.httpStatus
            throw mapped
        }
        guard let next else {
            throw failure(
                .credentialRejected,
                "\(layer) refused the credential \"\(token.credential)\" (HTTP 401) and nothing new can be sent: check the credential")
        }
        return next
    }
}

extension FeatureServiceError {
    /// The layer's error for a credentials failure: its code, message and retryability as the authenticator
    /// said them.
    init(_ failure: AuthenticationFailure, layer: String) {
        self.init(Code(failure.code.rawValue), failure.message, layer: layer, isRetryable: failure.isRetryable)
    }
}

extension ParameterRedactor {
    /// `error` with every secret query parameter value in its message and details redacted.
    func redacting(_ error: FeatureServiceError) -> FeatureServiceError {
        guard !isEmpty else { return error }
        var error = error
        error.message = redact(error.message)
        error.details = redact(error.details)
        return error
    }
}

/// One query's requests: the engine's transport with the credentials the query uses. Discovery, pagers and
/// runners hold this, so every request they send asks the authenticator for its own URL.
struct OGCSession: Sendable {
    let transport: OGCTransport
    let auth: QueryAuthentication

    var logger: Logger { transport.logger }
    var configuration: OGCEngineConfiguration { transport.configuration }

    /// ``OGCTransport/fetch(_:layer:accept:maxResponseSize:auth:decode:)`` with this query's credentials.
    func fetch<T: Sendable>(
        _ url: String, layer: String, accept: String = OGCTransport.acceptJSON, maxResponseSize: Int? = nil,
        decode: (HTTPResponse) throws(FeatureServiceError) -> T
    ) async throws -> T {
        try await transport.fetch(url, layer: layer, accept: accept, maxResponseSize: maxResponseSize, auth: auth, decode: decode)
    }
}
