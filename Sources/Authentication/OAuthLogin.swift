package import Credentials
package import CurlHTTP
import FeatureQuerySupport
package import Logging

/// `query-worker login`: the one-time sign-in of an `oauthUser` credential on a machine without a browser of
/// its own. Authorization code with PKCE (RFC 7636, S256) and a loopback redirect (RFC 8252 §7.3): listen on
/// the registered `http://127.0.0.1:PORT/path`, show the authorize URL, wait for the browser's redirect, check
/// its `state`, exchange the code, store the refresh token in `refreshTokenFile` (0600, atomically).
package struct OAuthLogin: Sendable {
    package let credential: String
    package let settings: OAuthUserSettings
    package let redirect: LoopbackRedirect
    package let pkce: PKCE
    let client: HTTPClient
    let logger: Logger

    /// What a successful sign-in stored.
    package struct Session: Sendable, Hashable {
        package var username: String?
        package var refreshTokenFile: String
        package var expiresAtMilliseconds: Int64?
    }

    /// - Parameter redirectURI: overrides the credential's `redirectUri`; one of them must be a loopback URL.
    package init(
        credential: Credential, redirectURI: String?, client: HTTPClient, logger: Logger, pkce: PKCE = PKCE()
    ) throws(OAuthSessionFailure) {
        guard case .oauthUser(let settings) = credential.configuration else {
            throw OAuthSessionFailure(
                .notConfigured, "the credential \"\(credential.name)\" is a \(credential.kind) credential; login is for oauthUser credentials")
        }
        guard let text = redirectURI ?? settings.redirectURI else {
            throw OAuthSessionFailure(
                .notConfigured,
                "the credential \"\(credential.name)\" has no redirectUri: register a loopback redirect such as http://127.0.0.1:7890/callback with the application and give it as redirectUri or --redirect-uri")
        }
        guard let redirect = LoopbackRedirect(text) else {
            throw OAuthSessionFailure(
                .notConfigured, "the redirect URI \(text) must be a loopback http URL with a port, like http://127.0.0.1:7890/callback")
        }
        self.credential = credential.name
        self.settings = settings
        self.redirect = redirect
        self.pkce = pkce
        self.client = client
        self.logger = logger
    }

    /// The portal's authorize URL the operator opens: the PKCE challenge and `state`, never the verifier.
    package var authorizeURL: String {
        let parameters = [
            ("client_id", settings.clientID), ("response_type", "code"), ("redirect_uri", redirect.uri), ("state", pkce.state),
            ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method),
        ]
        return TokenEndpoints.oauth(settings.portalURL, "authorize") + "?"
            + parameters.map { "\($0.0)=\(HTTPRequest.formEncode($0.1))" }.joined(separator: "&")
    }

    /// Listens, calls `announce` with the authorize URL, waits at most `timeout` for the redirect, then
    /// exchanges the code and stores the session.
    package func run(timeout: Duration = .seconds(300), announce: @Sendable (String) -> Void) async throws(OAuthSessionFailure) -> Session {
        let callback = try await waitForRedirect(timeout: timeout, announce: announce)
        switch callback {
        case .code(let code): return try await exchange(code)
        case .denied(let reason):
            throw OAuthSessionFailure(.denied, "the sign-in was declined at the portal (\(reason)); run login again to retry")
        case .wrongState:
            throw OAuthSessionFailure(
                .wrongState,
                "a redirect arrived for another sign-in (its state does not match this one); nothing was stored: open the URL this command printed")
        case .malformed:
            throw OAuthSessionFailure(.malformedRedirect, "the redirect carried neither an authorization code nor an error")
        }
    }

    private func waitForRedirect(timeout: Duration, announce: @Sendable (String) -> Void) async throws(OAuthSessionFailure) -> RedirectCallback {
        let (callbacks, sink) = AsyncStream.makeStream(of: RedirectCallback.self)
        let redirect = self.redirect
        let state = pkce.state
        let server: RedirectListener
        do {
            server = try await RedirectListener.start(redirect: redirect, state: state, logger: logger, callbacks: sink)
        } catch {
            throw OAuthSessionFailure(
                .portUnavailable,
                "can't listen on \(redirect.listenHost):\(redirect.port) for the redirect (is the port in use, or another login running?)")
        }
        announce(authorizeURL)
        let first = await withTaskGroup(of: RedirectCallback?.self) { group in
            group.addTask {
                for await callback in callbacks { return callback }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        sink.finish()
        await server.shutdown()
        guard let first else {
            throw OAuthSessionFailure(
                .timedOut,
                "no redirect arrived at \(redirect.uri) within \(timeout): open the URL in a browser that reaches 127.0.0.1:\(redirect.port) of this machine "
                    + "(from another machine: ssh -L \(redirect.port):127.0.0.1:\(redirect.port) to this host first)")
        }
        return first
    }

    /// `authorization_code` with the PKCE verifier; the answer's refresh token goes to the file.
    private func exchange(_ code: Secret) async throws(OAuthSessionFailure) -> Session {
        let url = TokenEndpoints.oauth(settings.portalURL, "token")
        let call = TokenCall(credential: credential, url: url, purpose: .authorizationCode)
        var request = HTTPRequest.formPost(
            url: url,
            fields: [("client_id", settings.clientID), ("grant_type", "authorization_code"), ("code", code.revealed()),
                     ("redirect_uri", redirect.uri), ("code_verifier", pkce.verifier.revealed()), ("f", "json")],
            headers: ["Accept": "application/json"])
        request.options.timeout = Duration.seconds(30)
        request.options.maxResponseSize = 1 << 20
        let answer: TokenResponse
        do throws(TokenFailure) {
            let response: HTTPResponse
            do {
                response = try await client.execute(request)
            } catch {
                throw TokenResponseReader.unavailable(call, "could not be reached")
            }
            answer = try TokenResponseReader.readRefreshToken(response, call: call)
        } catch {
            throw OAuthSessionFailure(.tokenCall, error.message)
        }
        let now = WallClock.nowMilliseconds()
        let file = RefreshTokenFile(
            refreshToken: answer.token, issuedAtMilliseconds: now, expiresAtMilliseconds: answer.expiresInSeconds.map { now + $0 * 1000 },
            redirectURI: redirect.uri, username: answer.username)
        do {
            try file.write(path: settings.refreshTokenFile)
        } catch {
            throw OAuthSessionFailure(.file, error.message)
        }
        logger.info("signed in", metadata: ["credential": "\(credential)"])
        return Session(username: answer.username, refreshTokenFile: settings.refreshTokenFile, expiresAtMilliseconds: file.expiresAtMilliseconds)
    }
}
