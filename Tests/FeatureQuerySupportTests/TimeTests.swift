import FeatureQuerySupport
import Foundation
import Testing

/// The one millisecond conversion and the wall clock.
@Suite("Time")
struct TimeTests {
    @Test(arguments: [
        (Duration.zero, Int64(0)), (.milliseconds(1), 1), (.microseconds(1_999), 1), (.nanoseconds(999_999), 0),
        (.seconds(2) + .nanoseconds(5_000_001), 2_005), (.seconds(86_400), 86_400_000),
    ])
    func truncatesTowardZero(_ duration: Duration, _ expected: Int64) {
        #expect(duration.clampedMilliseconds == expected)
    }

    @Test(arguments: [Duration.nanoseconds(-1), .milliseconds(-1), .microseconds(-1_500), .seconds(-3), .seconds(Int64.min)])
    func negativeDurationsAreZero(_ duration: Duration) {
        #expect(duration.clampedMilliseconds == 0)
    }

    @Test func hugeDurationsSaturateInsteadOfTrapping() {
        #expect(Duration.seconds(Int64.max).clampedMilliseconds == .max)
        #expect(Duration.seconds(Int64.max / 1_000).clampedMilliseconds == Int64.max / 1_000 * 1_000)
        #expect((Duration.seconds(Int64.max / 1_000) + .seconds(1)).clampedMilliseconds == .max)
    }

    @Test func wallClockAgreesWithFoundation() {
        let before = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
        let now = WallClock.nowMilliseconds()
        let after = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.up))
        #expect(now >= before - 1 && now <= after + 1)
        #expect(abs(WallClock.nowSeconds() - now / 1_000) <= 1)
    }

    @Test func rfc3339OfTheWallClockReadsBack() {
        let now = WallClock.nowMilliseconds()
        #expect(RFC3339.milliseconds(from: RFC3339.string(fromMilliseconds: now)) == now)
    }
}
