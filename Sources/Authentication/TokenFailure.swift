/// Why a credential has no token to give: a token call failed, the server refused the credential, or a token
/// it had just issued was rejected.
///
/// The message comes from the code that made the token call and must not quote the server's answer verbatim
/// where that could echo a secret; the token state machine only stores and hands it back.
package struct TokenFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The token endpoint could not be reached or answered with a server error: try again later.
        package static let tokenServiceUnavailable = Code("token_service_unavailable")
        /// Wrong password, invalid client, or a token the server had just issued rejected again.
        package static let credentialRejected = Code("credential_rejected")
        /// The credential (an API key, a pre-generated token) is past its end and can't be refreshed.
        package static let credentialExpired = Code("credential_expired")
        /// The refresh token expired: an operator must run `query-worker login` again.
        package static let reloginRequired = Code("relogin_required")
        /// A secret the token call needs (a password, a client secret) can't be read now. Retryable for the
        /// state machine (tried again after the backoff, so a file put back is used within seconds, not after the
        /// terminal window), but not for the request: an operator has to put the file back.
        package static let credentialUnavailable = Code("credential_unavailable")
    }

    package var code: Code
    /// What happened and what to do, naming the credential, never a secret.
    package var message: String
    /// Whether another token call may succeed without an operator changing anything. A retryable failure is
    /// retried after a growing backoff; a terminal one after ``TokenRefreshPolicy/terminalWindow``, so that a
    /// wrong password is tried once a minute, not once per request (no account lockout).
    package var isRetryable: Bool

    package init(code: Code, message: String, isRetryable: Bool) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
    }

    package var description: String { "TokenFailure(\(code)): \(message)" }
}
