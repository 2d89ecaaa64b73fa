import QueryOutcomes
import Testing

/// The numbers a progress bar shows, from readings alone: no terminal, no clock.
@Suite struct ProgressMeterTests {
    typealias Reading = ProgressMeter.Reading

    @Test func rateAndTimeLeftFollowTheReadings() {
        var meter = ProgressMeter()
        #expect(meter.featuresPerSecond == nil && meter.remaining == nil)
        meter.record(Reading(features: 0, expected: 10_000, pages: 0, elapsed: .zero))
        #expect(meter.featuresPerSecond == nil, "one reading has no rate")
        meter.record(Reading(features: 2_000, expected: 10_000, pages: 1, elapsed: .seconds(1)))
        meter.record(Reading(features: 4_000, expected: 10_000, pages: 2, elapsed: .seconds(2)))
        #expect(meter.featuresPerSecond == 2_000)
        #expect(meter.remaining == .seconds(3))
        #expect(meter.fraction == 0.4)
        #expect(meter.plainLine == "progress: 4,000 of 10,000 features (40%), 2 pages, 2,000/s, about 0:03 left")
    }

    @Test func theRateForgetsReadingsOlderThanTheWindow() {
        var meter = ProgressMeter()
        // Fast for 20 s, then slow: the rate is the last ten seconds', not the whole run's.
        meter.record(Reading(features: 0, expected: nil, pages: 0, elapsed: .zero))
        meter.record(Reading(features: 20_000, expected: nil, pages: 20, elapsed: .seconds(20)))
        for second in 21...30 {
            meter.record(Reading(features: 20_000 + (second - 20) * 100, expected: nil, pages: second, elapsed: .seconds(second)))
        }
        #expect(meter.featuresPerSecond == 100)
        #expect(meter.remaining == nil, "no total, no time left")
        #expect(meter.plainLine == "progress: 21,000 features, 30 pages, 100/s")
    }

    @Test func anOlderReadingIsIgnored() {
        var meter = ProgressMeter()
        meter.record(Reading(features: 500, expected: 1_000, pages: 1, elapsed: .seconds(2)))
        meter.record(Reading(features: 100, expected: 1_000, pages: 1, elapsed: .seconds(1)))
        #expect(meter.latest?.features == 500)
    }

    @Test func theBarFitsTheWidthAndShowsTheFraction() {
        var meter = ProgressMeter()
        meter.record(Reading(features: 0, expected: 1_000, pages: 0, elapsed: .zero))
        meter.record(Reading(features: 500, expected: 1_000, pages: 5, elapsed: .seconds(5)))
        let bar = meter.bar(width: 60)
        #expect(bar.count <= 60)
        #expect(bar.hasPrefix("["))
        let inside = bar.dropFirst().prefix { $0 != "]" }
        #expect(inside.filter { $0 == "#" }.count * 2 == inside.count, "half filled: \(bar)")
        #expect(bar.hasSuffix(" 500/1,000  100/s  0:05 left"), "\(bar)")
        #expect(meter.bar(width: 20).count <= 20)
    }

    @Test func clockAndGrouping() {
        #expect(ProgressMeter.Reading(features: 1, expected: nil, pages: 1, elapsed: .zero).features == 1)
        var meter = ProgressMeter()
        meter.record(Reading(features: 0, expected: 10_000_000, pages: 0, elapsed: .zero))
        meter.record(Reading(features: 1_000, expected: 10_000_000, pages: 1, elapsed: .seconds(1)))
        // 9,999,000 left at 1,000/s: 9,999 s = 2:46:39.
        #expect(meter.plainLine.hasSuffix("about 2:46:39 left"), "\(meter.plainLine)")
    }
}
