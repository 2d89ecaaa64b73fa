package import Credentials
import FeatureQuerySupport

/// A token endpoint's successful answer: ArcGIS `generateToken` (`token`, `expires` in Unix milliseconds,
/// `ssl`) or OAuth (`access_token`, `expires_in` in seconds, `refresh_token`, `refresh_token_expires_in`).
package struct TokenResponse: Sendable, Hashable {
    package var token: Secret
    /// `expires`: Unix milliseconds.
    package var expiresAtMilliseconds: Int64?
    /// `expires_in`: seconds from now.
    package var expiresInSeconds: Int64?
    /// `ssl: true`: the token may only travel over https.
    package var requiresTLS: Bool
    package var refreshToken: Secret?
    package var refreshTokenExpiresInSeconds: Int64?
    /// Who signed in (OAuth user grants); not secret.
    package var username: String?

    /// The token's end as a Unix millisecond time, from whichever form the endpoint gave, read at `nowMilliseconds`.
    package func expiryMilliseconds(nowMilliseconds: Int64) -> Int64? {
        if let expiresAtMilliseconds { return expiresAtMilliseconds }
        return expiresInSeconds.map { nowMilliseconds + $0 * 1000 }
    }

    /// The token's end on the monotonic clock: the wall-clock distance to it added to `now`, so a later change
    /// of the wall clock doesn't move it.
    package func serverExpiry(now: ContinuousClock.Instant = .now, nowMilliseconds: Int64 = WallClock.nowMilliseconds()) -> ContinuousClock.Instant? {
        expiryMilliseconds(nowMilliseconds: nowMilliseconds).map { now + .milliseconds($0 - nowMilliseconds) }
    }
}
