package import Credentials
import FeatureQuerySupport
import Foundation
import Logging

extension ArcGISTokenIssuer {
    /// An `oauthUser` access token: the refresh token from `refreshTokenFile`, first exchanged for a new one
    /// (written back) when half its life has passed, then the `refresh_token` grant. An exchange that answers
    /// with an access token too (ArcGIS does) needs no second call; one that fails for a retryable reason falls
    /// back to the refresh, since the old refresh token still has half its life.
    func issueUserToken(_ credential: Credential, _ settings: OAuthUserSettings) async throws(TokenFailure) -> IssuedGrant {
        let url = TokenEndpoints.oauth(settings.portalURL, "token")
        let call = TokenCall(credential: credential.name, url: url, purpose: .refresh)
        var file = try readSession(credential.name, settings, call: call)
        if file.isDueForExchange(nowMilliseconds: WallClock.nowMilliseconds()) {
            do {
                let (renewed, access) = try await exchange(file, credential.name, settings, call: call)
                if let access { return Self.grant(access, requestedMinutes: nil) }
                file = renewed
            } catch where error.isRetryable {
                logger.warning(
                    "could not exchange the refresh token; refreshing with the current one",
                    metadata: ["credential": "\(credential.name)", "error": "\(error.message)"])
            }
        }
        let answer = try await post(
            url,
            [("client_id", settings.clientID), ("grant_type", "refresh_token"), ("refresh_token", file.refreshToken.revealed()),
             ("f", "json")],
            call: call)
        if let rotated = answer.refreshToken, rotated != file.refreshToken {
            // A server that rotates refresh tokens on every refresh (not ArcGIS): keep the new one.
            let now = WallClock.nowMilliseconds()
            store(RefreshTokenFile(
                refreshToken: rotated, issuedAtMilliseconds: now,
                expiresAtMilliseconds: answer.refreshTokenExpiresInSeconds.map { now + $0 * 1000 } ?? file.expiresAtMilliseconds,
                redirectURI: file.redirectURI, username: answer.username ?? file.username), credential.name, settings)
        }
        return Self.grant(answer, requestedMinutes: nil)
    }

    /// The session file, or `relogin_required` naming it: without a refresh token only `login` can help.
    private func readSession(_ name: String, _ settings: OAuthUserSettings, call: TokenCall) throws(TokenFailure) -> RefreshTokenFile {
        do {
            return try RefreshTokenFile.read(path: settings.refreshTokenFile)
        } catch {
            throw TokenFailure(
                code: .reloginRequired,
                message: "\(error.message): the credential \"\(name)\" has no session; run `query-worker login --credential \(name)`",
                isRetryable: false)
        }
    }

    /// `exchange_refresh_token`: a new refresh token (with a new two-week life) for the old one, written back
    /// before it is used, and the access token the answer carries, if any.
    private func exchange(
        _ file: RefreshTokenFile, _ name: String, _ settings: OAuthUserSettings, call: TokenCall
    ) async throws(TokenFailure) -> (RefreshTokenFile, TokenResponse?) {
        let redirect = settings.redirectURI ?? file.redirectURI ?? "urn:ietf:wg:oauth:2.0:oob"
        let response = try await send(
            call.url,
            [("client_id", settings.clientID), ("grant_type", "exchange_refresh_token"),
             ("refresh_token", file.refreshToken.revealed()), ("redirect_uri", redirect), ("f", "json")],
            call: call)
        let refresh = try TokenResponseReader.readRefreshToken(response, call: call)
        let now = WallClock.nowMilliseconds()
        let renewed = RefreshTokenFile(
            refreshToken: refresh.token, issuedAtMilliseconds: now,
            expiresAtMilliseconds: refresh.expiresInSeconds.map { now + $0 * 1000 }, redirectURI: file.redirectURI,
            username: refresh.username ?? file.username)
        store(renewed, name, settings)
        logger.info("exchanged the refresh token for a new one", metadata: ["credential": "\(name)"])
        return (renewed, try? TokenResponseReader.read(response, call: call))
    }

    /// Writes the session back; a failure is logged (the token in hand still works, and the old file's token
    /// stays valid until it expires), never thrown.
    private func store(_ file: RefreshTokenFile, _ name: String, _ settings: OAuthUserSettings) {
        do {
            try file.write(path: settings.refreshTokenFile)
        } catch {
            logger.error("could not write the new refresh token back", metadata: ["credential": "\(name)", "error": "\(error.message)"])
        }
    }

    /// `oauth2/revokeToken` with the refresh token in `refreshTokenFile` (`logout`, and a removed credential).
    /// Does nothing when there is no file.
    package func revokeRefreshToken(_ name: String, _ settings: OAuthUserSettings) async throws(TokenFailure) {
        guard let file = try? RefreshTokenFile.read(path: settings.refreshTokenFile) else { return }
        let url = TokenEndpoints.oauth(settings.portalURL, "revokeToken")
        let call = TokenCall(credential: name, url: url, purpose: .revoke)
        let response = try await send(
            url, [("client_id", settings.clientID), ("auth_token", file.refreshToken.revealed()), ("f", "json")], call: call)
        try TokenResponseReader.check(response, call: call)
        logger.info("revoked the refresh token", metadata: ["credential": "\(name)"])
    }
}

extension ArcGISTokenIssuer {
    /// `query-worker logout`: revokes the refresh token, then deletes the file. Returns `false` when there was
    /// no file (nothing to do). A failed revocation keeps the file, so the operator can run it again.
    package func logOut(_ credential: Credential) async throws(OAuthSessionFailure) -> Bool {
        guard case .oauthUser(let settings) = credential.configuration else {
            throw OAuthSessionFailure(.notConfigured, "the credential \"\(credential.name)\" is not an oauthUser credential")
        }
        guard FileManager.default.fileExists(atPath: settings.refreshTokenFile) else { return false }
        do {
            try await revokeRefreshToken(credential.name, settings)
        } catch {
            throw OAuthSessionFailure(.tokenCall, error.message + "; the refresh token file was kept")
        }
        do {
            try RefreshTokenFile.remove(path: settings.refreshTokenFile)
        } catch {
            throw OAuthSessionFailure(.file, error.message)
        }
        return true
    }
}
