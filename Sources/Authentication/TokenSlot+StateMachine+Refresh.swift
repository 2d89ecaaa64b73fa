extension TokenSlot.StateMachine {
    /// The token call of `ticket` returned `grant` at `now`.
    ///
    /// The token is kept until the earlier of the server's expiry and the start of the token call plus the
    /// lifetime asked for (a server clock that runs ahead or behind can't make it outlive either), minus
    /// ``TokenRefreshPolicy/margin(forLifetime:)`` of that lifetime so it is refreshed before it expires;
    /// it stays usable for half the margin more while that refresh runs.
    /// A server expiry that is not after `now` can only come from a clock far off (the token was just minted):
    /// it is ignored rather than making every request start a token call.
    mutating func refreshSucceeded(_ ticket: RefreshTicket, grant: TokenGrant, now: ContinuousClock.Instant) -> RefreshResultAction {
        guard case .refreshing(let refresh) = state, refresh.generation == ticket.generation else { return .ignore }
        let localExpiry = grant.requestedLifetime.map { refresh.startedAt + $0 }
        let serverExpiry = grant.serverExpiry.flatMap { $0 > now ? $0 : nil }
        let expiry: ContinuousClock.Instant? =
            switch (serverExpiry, localExpiry) {
            case (let server?, let local?): min(server, local)
            case (let server?, nil): server
            case (nil, let local?): local
            case (nil, nil): nil
            }
        let margin = expiry.map { policy.margin(forLifetime: $0 - now) } ?? .zero
        let token = IssuedToken(
            secret: grant.token, generation: ticket.generation, issuedAt: now,
            refreshAfter: expiry.map { $0 - margin }, usableUntil: expiry.map { $0 - margin / 2 }, expiresAt: expiry,
            replacesRejected: refresh.replacesRejected)
        state = .valid(token)
        return .succeedWaiters(token)
    }

    /// The token call of `ticket` failed at `now` with `error`.
    ///
    /// The waiters fail with it, and so does every request until the retry time (unless the token being
    /// replaced is still usable: requests keep using it until then): after a retryable failure
    /// ``TokenRefreshPolicy/backoff(afterFailures:)`` (growing with each failure in a row), after a terminal
    /// one ``TokenRefreshPolicy/terminalWindow``. The first request after it starts a new token call.
    mutating func refreshFailed(_ ticket: RefreshTicket, error: TokenFailure, now: ContinuousClock.Instant) -> RefreshResultAction {
        guard case .refreshing(let refresh) = state, refresh.generation == ticket.generation else { return .ignore }
        let failure =
            if error.isRetryable {
                Failure(
                    error: error, retryAt: now + policy.backoff(afterFailures: refresh.consecutiveFailures + 1),
                    consecutiveFailures: refresh.consecutiveFailures + 1, previous: refresh.previous)
            } else {
                Failure(error: error, retryAt: now + policy.terminalWindow, consecutiveFailures: 0, previous: refresh.previous)
            }
        state = .failed(failure)
        return .failWaiters(error)
    }
}
