import EngineExecution

/// The engine's retry policy as the shared ``RetrySchedule``: when to try a failed ArcGIS request again.
struct RetryBackoff {
    let policy: ArcGISEngineConfiguration.RetryPolicy

    /// The wait before retry number `retry` (1 for the first retry) of a request that failed with `error`;
    /// nil when the request must not be retried.
    func delay(
        afterFailure error: ArcGISError, retry: Int, random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Duration? {
        RetrySchedule(
            maxAttempts: policy.maxAttempts, baseDelay: policy.baseDelay, maxDelay: policy.maxDelay,
            maxRetryAfter: policy.maxRetryAfter
        ).delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: retry, random: random)
    }
}
