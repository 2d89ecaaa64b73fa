package import CurlHTTP

/// What the engines ask before each request and after a service rejects a token: the seam between the
/// engines (which know ArcGIS and OGC answers) and the worker's credentials (which know tokens, scopes and
/// secrets). Engines see no secret handling, and the credentials side sees no protocol.
///
/// Every request of a query asks ``authentication(for:credential:)`` again: a token refreshed for one page is
/// used by the next, and a reloaded credentials file applies to the next request.
package protocol RequestAuthenticator: Sendable {
    /// What to add to a request for `url`, for a query that picked `credential` by name (`nil`: whatever covers
    /// `url` by scope). Obtains a token when the credential needs one and has none (shared by every caller
    /// that asks at the same time). Nothing covering `url` is not an error: the result is empty.
    ///
    /// Throws ``AuthenticationFailure``, or `CancellationError` when the calling task is cancelled while it
    /// waits for a token call (the call goes on for the other requests that share it).
    func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication

    /// The service answered a request sent with `applied` with 498 (invalid or expired token) or 499 (token
    /// required): what to send on the request's one retry, or `nil` when nothing new can be sent (the caller
    /// then fails the request). Refreshes only if `applied`'s token is still the credential's current one, so
    /// many requests rejected at once cause one token call. Throws when the credential can't be refreshed
    /// (an API key or pre-generated token is `credential_expired`; a token the server issued moments ago and
    /// rejects again is `credential_rejected`). Throws ``AuthenticationFailure`` or `CancellationError`.
    func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication?

    /// What ``authentication(for:credential:)`` answers, when that is known at once without waiting or failing
    /// (an authenticator with nothing to add); nil: ask ``authentication(for:credential:)``. Every request asks
    /// its credentials, and an `async` call costs the calling task a frame even when it never waits.
    func immediateAuthentication(for url: String, credential: String?) -> AppliedAuthentication?
}

extension RequestAuthenticator {
    /// Nothing is known without asking: ``RequestAuthenticator/authentication(for:credential:)`` decides.
    package func immediateAuthentication(for url: String, credential: String?) -> AppliedAuthentication? { nil }
}

/// What one request carries because of its credentials. Tokens travel in headers only, never in URLs.
///
/// The fields live in one shared box, none at all for a request that carries nothing (most requests of most
/// workers): every request hands this value from the authenticator to the request and on to the handling of
/// its answer, and copying the fields themselves (a network rule of several optionals among them) each time
/// was a measurable part of the engine's CPU per query. A value is still a value: setting a field makes a
/// new box.
package struct AppliedAuthentication: Sendable, Hashable {
    /// Header fields to add (`X-Esri-Authorization: Bearer …`, the `Referer` the token was minted for, an OGC
    /// service's API key header). Their values are secrets: never log them.
    package var headers: [HeaderField] {
        get { fields.headers }
        set { fields.headers = newValue }
    }
    /// Query parameters to add: only an `apiKey` credential the operator configured with `in: query` (some OGC
    /// services take `?apikey=`). Engines replace a parameter of the same name (a `next` link may echo it) and
    /// redact its value wherever they log or report a URL.
    package var parameters: [HeaderField] {
        get { fields.parameters }
        set { fields.parameters = newValue }
    }
    /// HTTP authentication, client certificate and server trust that libcurl applies, for this URL only
    /// (`HTTPRequestOptions.credentials`).
    package var network: HTTPCredentialRule? {
        get { fields.network }
        set { fields.network = newValue }
    }
    /// The token sent, as the credentials side identifies it, for ``RequestAuthenticator/rejected(_:serviceCode:for:credential:)``;
    /// `nil` when no token was sent.
    package var token: TokenReference? {
        get { fields.token }
        set { fields.token = newValue }
    }
    /// The name of the credential whose access this request uses, when one applies (`nil`: none, or the
    /// authenticator does not say). The engines key cached metadata by it when the query picked no credential,
    /// so metadata loaded with one credential's access never answers a caller using another.
    package var cacheIdentity: String? {
        get { fields.cacheIdentity }
        set { fields.cacheIdentity = newValue }
    }

    /// The fields, as one value.
    private struct Fields: Sendable, Hashable {
        var headers: [HeaderField] = []
        var parameters: [HeaderField] = []
        var network: HTTPCredentialRule?
        var token: TokenReference?
        var cacheIdentity: String?
    }

    /// The box of the fields; never mutated (a change makes a new one).
    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// nil: every field empty.
    private var box: Box?

    private var fields: Fields {
        get { box?.fields ?? Fields() }
        set { box = newValue == Fields() ? nil : Box(newValue) }
    }

    package init(
        headers: [HeaderField] = [], parameters: [HeaderField] = [], network: HTTPCredentialRule? = nil,
        token: TokenReference? = nil, cacheIdentity: String? = nil
    ) {
        fields = Fields(headers: headers, parameters: parameters, network: network, token: token, cacheIdentity: cacheIdentity)
    }

    /// Nothing to add: no credential covers the URL.
    package static let none = AppliedAuthentication()

    package var isEmpty: Bool {
        guard let fields = box?.fields else { return true }
        return fields.headers.isEmpty && fields.parameters.isEmpty && fields.network == nil && fields.token == nil
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.fields == rhs.fields }
    package func hash(into hasher: inout Hasher) { hasher.combine(fields) }

    /// One header field. Its description hides the value.
    package struct HeaderField: Sendable, Hashable, CustomStringConvertible {
        package var name: String
        package var value: String
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
        package var description: String { "\(name): <redacted>" }
    }

    /// Which token of which credential a request carried: the credential's name (safe to log), the token's
    /// generation, and the cache key the credentials side keeps it under (a federated server's root).
    package struct TokenReference: Sendable, Hashable {
        package var credential: String
        package var generation: UInt64
        package var key: String
        /// What kind of token it is: how the engines name it in errors ("API key", "token").
        package var isRefreshable: Bool
        /// When the token was handed to the request, moments before it was sent (credentials are asked for once
        /// the host's slot is held): a rejection is judged by when the token was sent, not when the answer
        /// came. `nil` for a token that is not refreshed.
        package var sentAt: ContinuousClock.Instant?
        /// From when a rejection of this token may be its expiry (its refresh point); `nil` when its expiry is
        /// unknown or it is not refreshed.
        package var expiringFrom: ContinuousClock.Instant?

        package init(
            credential: String, generation: UInt64, key: String, isRefreshable: Bool,
            sentAt: ContinuousClock.Instant? = nil, expiringFrom: ContinuousClock.Instant? = nil
        ) {
            self.credential = credential
            self.generation = generation
            self.key = key
            self.isRefreshable = isRefreshable
            self.sentAt = sentAt
            self.expiringFrom = expiringFrom
        }

        /// Whether a rejection answered at `now` may be the token running out rather than the service refusing
        /// it: it was answered once the token was due for refresh. Such a rejection earns the request another
        /// replacement (``EngineTransport``); a refusal does not.
        package func mayHaveExpired(at now: ContinuousClock.Instant) -> Bool {
            guard let expiringFrom else { return false }
            return now >= expiringFrom
        }

        /// The same token of the same credential, whenever it was handed out: ``sentAt`` is when, not which.
        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.credential == rhs.credential && lhs.generation == rhs.generation && lhs.key == rhs.key
                && lhs.isRefreshable == rhs.isRefreshable && lhs.expiringFrom == rhs.expiringFrom
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(credential)
            hasher.combine(generation)
            hasher.combine(key)
        }
    }

    /// `request` with these headers and network credentials added (not ``parameters``: where they go depends on
    /// the protocol, GET URL or POST body).
    package func applied(to request: HTTPRequest) -> HTTPRequest {
        guard let fields = box?.fields else { return request }
        var request = request
        for field in fields.headers { request.headers.replace(field.name, field.value) }
        if let network = fields.network { request.options.credentials = network }
        return request
    }
}

/// Why a request can't be sent with the credentials it needs, in the worker's contract codes. The message
/// names the credential and what to do, never a secret.
package struct AuthenticationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The service wants a token and no credential covers it.
        package static let authenticationRequired = Code("authentication_required")
        /// The token service refused the credential: wrong password, invalid client.
        package static let credentialRejected = Code("credential_rejected")
        /// An API key or pre-generated token is past its end; only the operator can replace it.
        package static let credentialExpired = Code("credential_expired")
        /// The OAuth refresh token expired: run `query-worker login` again.
        package static let reloginRequired = Code("relogin_required")
        /// The portal the credential signs in to does not own the server (federation), so its token must not go there.
        package static let notFederated = Code("not_federated")
        /// A token minted `ssl: true` would travel over plain http.
        package static let insecureTransport = Code("insecure_transport")
        /// The token service could not be reached or failed: try again later.
        package static let tokenServiceUnavailable = Code("token_service_unavailable")
        /// The request named a credential that is not configured (it may have been removed by a reload).
        package static let unknownCredential = Code("unknown_credential")
        /// A secret of the credential can't be read now (its file is gone or unreadable): the operator must fix it.
        package static let credentialUnavailable = Code("credential_unavailable")
        /// The request named a credential whose scope does not cover the URL.
        package static let credentialScopeMismatch = Code("credential_scope_mismatch")
    }

    package var code: Code
    /// What happened and what to do, naming the credential (never a secret).
    package var message: String
    /// The credential's name, when one is involved.
    package var credential: String?
    /// Whether the same request may succeed later without an operator changing anything.
    package var isRetryable: Bool

    package init(_ code: Code, _ message: String, credential: String?, isRetryable: Bool = false) {
        self.code = code
        self.message = message
        self.credential = credential
        self.isRetryable = isRetryable
    }

    package var description: String { "AuthenticationFailure(\(code)): \(message)" }
}

/// The authenticator for a worker without credentials: nothing to add, nothing to refresh.
package struct NoAuthentication: RequestAuthenticator {
    package init() {}
    package func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        if let credential {
            throw AuthenticationFailure(
                .unknownCredential, "the credential \"\(credential)\" is not configured on this worker", credential: credential)
        }
        return .none
    }
    package func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? { nil }
    /// Nothing, without asking, for a query that picked no credential (one that did fails in
    /// ``authentication(for:credential:)``).
    package func immediateAuthentication(for url: String, credential: String?) -> AppliedAuthentication? {
        credential == nil ? AppliedAuthentication.none : nil
    }
}
