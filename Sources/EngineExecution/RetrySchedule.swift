/// When to try a failed request again: exponential backoff with full jitter, never sooner than the service's
/// `Retry-After`. Shared by every engine, so each protocol's retries behave alike.
///
/// Full jitter (a random delay between zero and the exponential bound) spreads the retries of many workers
/// that failed together, so they do not return together (AWS Architecture Blog, "Exponential Backoff And
/// Jitter"). The random source is a parameter so tests can pin it.
package struct RetrySchedule: Sendable, Hashable {
    /// Attempts per request, the first included. 1 means no retries.
    package var maxAttempts: Int
    /// The first backoff; each retry doubles it, up to `maxDelay`.
    package var baseDelay: Duration
    package var maxDelay: Duration
    /// The longest `Retry-After` honoured; a service asking for longer fails the request instead of stalling
    /// the caller.
    package var maxRetryAfter: Duration

    package init(
        maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5),
        maxRetryAfter: Duration = .seconds(30)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// One attempt only: for tests that want to see the first failure.
    package static let none = RetrySchedule(maxAttempts: 1)

    /// The wait before retry number `retry` (1 for the first retry) of a request that failed retryably or
    /// not (`isRetryable`), with the service's `Retry-After` if it sent one; nil when it must not be retried.
    package func delay(
        isRetryable: Bool, retryAfter: Duration?, retry: Int,
        random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Duration? {
        guard isRetryable, retry < maxAttempts else { return nil }
        if let retryAfter {
            guard retryAfter <= maxRetryAfter else { return nil }
            return retryAfter
        }
        let exponent = min(retry - 1, 20)
        let bound = min(baseDelay * (1 << exponent), maxDelay)
        let fraction = random(0...1)
        return bound * fraction
    }
}
