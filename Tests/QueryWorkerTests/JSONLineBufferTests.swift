import FeatureQuerySupport
@testable import JSONLogging
import Testing

/// The log line's hand-written parts agree with the package's general helpers they stand in for.
@Suite("JSON log lines: timestamps and reserved keys")
struct JSONLineBufferTests {
    @Test("a timestamp is RFC3339's text, quoted, for instants across the calendar and at its clamps", arguments: [
        Int64(0), 1, 999, 1_000, 86_399_999, 86_400_000, 1_764_131_251_042, 951_782_400_000, 4_102_444_799_999,
        -1, -999, -1_000, -86_400_001, -62_135_596_800_000, -62_135_596_800_001, 253_402_300_799_999,
        253_402_300_800_000, Int64.min, Int64.max,
    ])
    func timestampMatchesRFC3339(milliseconds: Int64) {
        var buffer = JSONLineBuffer(capacity: 32)
        buffer.timestamp(milliseconds: milliseconds)
        let written = String(decoding: buffer.bytes.dropFirst(), as: UTF8.self)  // after the object's "{"
        #expect(written == "\"" + RFC3339.string(fromMilliseconds: milliseconds) + "\"")
    }

    @Test("reserved keys are exactly the handler's own member names")
    func reservedKeys() {
        for key in JSONLogHandler.reservedKeys { #expect(JSONLogHandler.isReserved(key), "\(key)") }
        for key in ["", "t", "tS", "levels", "labe", "errors", "Message", "message ", "meta_ts", "status", "offset"] {
            #expect(!JSONLogHandler.isReserved(key), "\(key)")
        }
    }
}
