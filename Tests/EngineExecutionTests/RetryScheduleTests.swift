import EngineExecution
import FeatureService
import Testing

/// Backoff between attempts: doubling with full jitter up to its cap, `Retry-After` honoured up to its own cap,
/// and no retry for what is not retryable.
@Suite("RetrySchedule")
struct RetryScheduleTests {
    private let policy = RetrySchedule(
        maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(250), maxRetryAfter: .seconds(2))

    @Test func backoffDoublesUpToTheCapWithFullJitter() {
        let retryable = FeatureServiceError(.httpStatus, "503", layer: "x", isRetryable: true)
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 1, random: { $0.upperBound }) == .milliseconds(100))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 2, random: { $0.upperBound }) == .milliseconds(200))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 3, random: { $0.upperBound }) == .milliseconds(250))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 3, random: { $0.lowerBound }) == .zero)
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 4, random: { $0.upperBound }) == nil)
    }

    @Test func retryAfterIsHonouredUpToItsCap() {
        var error = FeatureServiceError(.httpStatus, "429", layer: "x", isRetryable: true, retryAfter: .seconds(1))
        #expect(policy.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: 1) == .seconds(1))
        error.retryAfter = .seconds(60)
        #expect(policy.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: 1) == nil)
    }

    @Test func nonRetryableErrorsAreNotRetried() {
        #expect(policy.delay(isRetryable: false, retryAfter: nil, retry: 1) == nil)
    }
}
