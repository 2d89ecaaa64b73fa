@testable import JSONLogging
import Testing

/// The handler's own member names, which metadata keys must not take.
@Suite("JSON log lines: reserved keys")
struct JSONLogReservedKeysTests {
    @Test("reserved keys are exactly the handler's own member names")
    func reservedKeys() {
        for key in JSONLogHandler.reservedKeys { #expect(JSONLogHandler.isReserved(key), "\(key)") }
        for key in ["", "t", "tS", "levels", "labe", "errors", "Message", "message ", "meta_ts", "status", "offset"] {
            #expect(!JSONLogHandler.isReserved(key), "\(key)")
        }
    }
}
