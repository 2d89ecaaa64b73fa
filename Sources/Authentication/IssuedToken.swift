package import Credentials

/// A token as the token state machine (``TokenSlot/StateMachine``) hands it to a request: the value, and the
/// refresh it came from.
///
/// A request keeps the ``IssuedToken`` it used and gives it back with
/// ``TokenSlot/StateMachine/tokenRejected(_:now:)`` after a 498/499, so the machine can tell a rejection of the current token (refresh) from one of a token
/// already replaced (use the newer one).
package struct IssuedToken: Sendable, Hashable {
    /// The token itself; its description is `<redacted>`.
    package var secret: Secret
    /// The refresh that produced it: increasing across refreshes and credential changes.
    package var generation: UInt64
    /// When it was received.
    package var issuedAt: ContinuousClock.Instant
    /// From this instant on, the first request that needs it starts one refresh and keeps using it meanwhile:
    /// its expiry minus the whole margin. `nil` when its expiry is unknown (used until the server rejects it).
    package var refreshAfter: ContinuousClock.Instant?
    /// From this instant on no request uses it: its expiry minus half the margin, the half kept for clock
    /// skew and the time a request takes. `nil` when its expiry is unknown.
    package var usableUntil: ContinuousClock.Instant?
    /// When it expires, as far as the worker knows (the server's `expires`, or the lifetime asked for); `nil` when
    /// unknown. What a replacement for a request that waited at the server is measured against
    /// (``outlives(_:from:)``).
    package var expiresAt: ContinuousClock.Instant?
    /// It was obtained because a service rejected the token before it: rejected again within the fresh-token
    /// window, the credential is refused, not refreshed once more.
    package var replacesRejected: Bool

    package init(
        secret: Secret, generation: UInt64, issuedAt: ContinuousClock.Instant,
        refreshAfter: ContinuousClock.Instant?, usableUntil: ContinuousClock.Instant?,
        expiresAt: ContinuousClock.Instant? = nil, replacesRejected: Bool = false
    ) {
        self.secret = secret
        self.generation = generation
        self.issuedAt = issuedAt
        self.refreshAfter = refreshAfter
        self.usableUntil = usableUntil
        self.expiresAt = expiresAt
        self.replacesRejected = replacesRejected
    }

    /// Whether a request starting at `now` may still use it.
    package func isUsable(at now: ContinuousClock.Instant) -> Bool {
        guard let usableUntil else { return true }
        return now < usableUntil
    }

    /// Whether it is time to replace it (it may still be usable).
    package func isDue(at now: ContinuousClock.Instant) -> Bool {
        guard let refreshAfter else { return false }
        return now >= refreshAfter
    }

    /// Whether a rejection answered at `now` may be this token running out rather than the server refusing it:
    /// from its refresh point on (``refreshAfter``: the margin kept for clock skew and for requests that wait at
    /// the server) an expiry is ordinary, however short the token's life. Never for a token of unknown expiry.
    package func mayHaveExpired(at now: ContinuousClock.Instant) -> Bool { isDue(at: now) }

    /// Whether it is still valid `wait` after `now`: a request that waited that long at the server before its
    /// token was judged needs a replacement that lives longer than the wait, or it is rejected again. True for
    /// a token of unknown expiry.
    package func outlives(_ wait: Duration, from now: ContinuousClock.Instant) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - now > wait
    }
}

/// What a successful token call returned.
package struct TokenGrant: Sendable, Hashable {
    package var token: Secret
    /// The server's `expires` (or `expires_in`) turned into a monotonic instant by the caller; `nil` when the
    /// server gave none.
    package var serverExpiry: ContinuousClock.Instant?
    /// The lifetime the token call asked for (`expiration` minutes); `nil` when it asked for none.
    package var requestedLifetime: Duration?

    package init(token: Secret, serverExpiry: ContinuousClock.Instant?, requestedLifetime: Duration?) {
        self.token = token
        self.serverExpiry = serverExpiry
        self.requestedLifetime = requestedLifetime
    }
}

/// The one token call a caller was asked to make; its result is reported with the same ticket, and a ticket
/// from before an invalidation is ignored.
package struct RefreshTicket: Sendable, Hashable {
    package var generation: UInt64
}
