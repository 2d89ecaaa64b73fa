/// Why `query-worker login` or `logout` failed, in words an operator can act on (never a secret, never the
/// portal's text).
package struct OAuthSessionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The credential is not an `oauthUser`, or has no loopback redirect URI.
        package static let notConfigured = Code("login_not_configured")
        /// The redirect's port could not be listened on (in use, or not allowed).
        package static let portUnavailable = Code("redirect_port_unavailable")
        /// No redirect arrived in time.
        package static let timedOut = Code("login_timed_out")
        /// The user or the portal declined (`error=access_denied` and the like).
        package static let denied = Code("login_denied")
        /// The redirect carried another `state`: not the sign-in this command started.
        package static let wrongState = Code("login_wrong_state")
        /// The redirect had neither a code nor an error.
        package static let malformedRedirect = Code("login_malformed_redirect")
        /// The token endpoint refused or failed the code exchange, or the revocation.
        package static let tokenCall = Code("token_call_failed")
        /// The refresh token file could not be written or deleted.
        package static let file = Code("refresh_token_file")
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code): \(message)" }
}
