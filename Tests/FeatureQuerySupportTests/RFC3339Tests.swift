import FeatureQuerySupport
import Testing

/// RFC 3339 date-times: what the decoder accepts matches JSON Schema's `date-time` format, and formatting
/// round-trips.
@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2025-06-01T12:00:00Z", 1_748_779_200_000),
        ("2025-06-01t12:00:00.5z", 1_748_779_200_500),
        ("2025-06-01T14:00:00.123456+02:00", 1_748_779_200_123),
        ("2025-06-01T07:30:00-04:30", 1_748_779_200_000),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
        ("1969-12-31T23:59:59.999Z", -1),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func readsDateTimes(_ text: String, _ expected: Int64) {
        #expect(RFC3339.milliseconds(from: text) == expected)
    }

    @Test(arguments: [
        "", "2025-06-01", "2025-06-01T12:00:00", "2025-06-01 12:00:00Z", "2025-02-29T00:00:00Z", "2025-04-31T00:00:00Z",
        "2025-13-01T00:00:00Z", "2025-00-01T00:00:00Z", "2025-06-00T00:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T12:60:00Z",
        "2025-06-01T12:00:60Z", "2025-06-01T12:00:00.Z", "2025-06-01T12:00:00+2:00", "2025-06-01T12:00:00+24:00",
        "2025-06-01T12:00:00+02:60", "0000-01-01T00:00:00Z", "2025-06-01T12:00:00ZZ", "+2025-06-01T12:00:00Z",
        "２０２５-06-01T12:00:00Z", "2025-06-01T12:00:00+0200",
    ])
    func refusesOtherText(_ text: String) {
        #expect(RFC3339.milliseconds(from: text) == nil)
    }

    @Test func formatsUTCWithMilliseconds() {
        #expect(RFC3339.string(fromMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.string(fromMilliseconds: 1_748_779_200_123) == "2025-06-01T12:00:00.123Z")
        #expect(RFC3339.string(fromMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.string(fromMilliseconds: .max) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.string(fromMilliseconds: .min) == "0001-01-01T00:00:00.000Z")
    }

    @Test func formattingRoundTrips() {
        var random = SplitMix64(seed: 3339)
        for _ in 0..<5_000 {
            let instant = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)
            #expect(RFC3339.milliseconds(from: RFC3339.string(fromMilliseconds: instant)) == instant)
        }
    }
}
