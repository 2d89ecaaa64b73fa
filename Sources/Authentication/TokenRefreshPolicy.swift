/// The timing rules of the token state machine (``TokenSlot/StateMachine``): how early a token is refreshed and
/// how long failures are remembered.
///
/// Pure arithmetic on durations, kept apart from the machine so each rule can be tested on its own. A type of
/// its own, not nested in the machine: the worker's assembly and tests pass it in, and the machine's slot is
/// this module's own.
package struct TokenRefreshPolicy: Sendable, Hashable {
    /// The share of a token's lifetime, in percent, given up as a safety margin before it expires: clock skew,
    /// the time a request takes, and a server that expires tokens a little early.
    package var marginPercent: Int
    /// The smallest margin (unless the token lives less than twice as long, see ``margin(forLifetime:)``).
    package var minimumMargin: Duration
    /// The largest margin, so a two-week token is not refreshed a day early.
    package var maximumMargin: Duration
    /// The wait after the first retryable failure; it doubles with each consecutive failure.
    package var initialBackoff: Duration
    /// The longest wait between token calls after retryable failures.
    package var maximumBackoff: Duration
    /// How long a terminal rejection (wrong password, invalid client) is answered from memory before the
    /// token endpoint is asked again.
    package var terminalWindow: Duration
    /// A token obtained to replace a rejected one, sent within this time of being issued and rejected before
    /// it was due for refresh, is not refreshed again: the server refuses every token for this credential (a
    /// wrong referer, a token URL of another server), and refreshing in a loop would only hammer the token
    /// endpoint. It is remembered as a terminal rejection. (A first token rejected this fast is refreshed once:
    /// it may have been revoked. A token rejected once due, however short its life, has expired.)
    package var freshTokenWindow: Duration

    package init(
        marginPercent: Int = 10,
        minimumMargin: Duration = .seconds(30),
        maximumMargin: Duration = .seconds(300),
        initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(60),
        terminalWindow: Duration = .seconds(60),
        freshTokenWindow: Duration = .seconds(10)
    ) {
        self.marginPercent = marginPercent
        self.minimumMargin = minimumMargin
        self.maximumMargin = maximumMargin
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.terminalWindow = terminalWindow
        self.freshTokenWindow = freshTokenWindow
    }

    /// ``marginPercent`` of `lifetime`, kept between ``minimumMargin`` and ``maximumMargin``, but never more
    /// than half the lifetime: a 40-second token is used for 20 seconds rather than refreshed on every request.
    /// Zero for a lifetime that is zero or negative.
    package func margin(forLifetime lifetime: Duration) -> Duration {
        guard lifetime > .zero else { return .zero }
        let share = lifetime * marginPercent / 100
        let bounded = min(max(share, minimumMargin), maximumMargin)
        return min(bounded, lifetime / 2)
    }

    /// The wait before the next token call after `consecutiveFailures` (from 1) retryable failures in a row:
    /// ``initialBackoff`` doubled each time, at most ``maximumBackoff``.
    package func backoff(afterFailures consecutiveFailures: Int) -> Duration {
        let doublings = min(max(consecutiveFailures - 1, 0), 30)
        return min(initialBackoff * (1 << doublings), maximumBackoff)
    }
}
