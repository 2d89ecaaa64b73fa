/// When to try a failed request again: exponential backoff with full jitter, never sooner than the service's
/// `Retry-After`.
///
/// Full jitter (a random delay between zero and the exponential bound) spreads the retries of many workers
/// that failed together, so they do not return together (AWS Architecture Blog, "Exponential Backoff And
/// Jitter"). The random source is a parameter so tests can pin it.
struct RetryBackoff {
    let policy: ArcGISEngineConfiguration.RetryPolicy

    /// The wait before retry number `retry` (1 for the first retry) of a request that failed with `error`;
    /// nil when the request must not be retried.
    func delay(
        afterFailure error: ArcGISError, retry: Int, random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Duration? {
        guard error.isRetryable, retry < policy.maxAttempts else { return nil }
        if let retryAfter = error.retryAfter {
            guard retryAfter <= policy.maxRetryAfter else { return nil }
            return retryAfter
        }
        let exponent = min(retry - 1, 20)
        let bound = min(policy.baseDelay * (1 << exponent), policy.maxDelay)
        let fraction = random(0...1)
        return bound * fraction
    }
}
