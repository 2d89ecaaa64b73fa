import FeatureQuerySupport
import Testing

/// The package's JSON reader through its own entry point, with its own error type.
@Suite("Reading JSON")
struct ParsedJSONReadingTests {
    @Test func readsValues() throws {
        let value = try ParsedJSON(reading: #" {"a":[1,-2.5e1,true,null,"s\u00e9\n"],"a":{"b":false}} "#)
        #expect(value == .object(["a": .object(["b": .bool(false)])]))
        #expect(try ParsedJSON(reading: Array("[0.1,1e400]".utf8)[...]) == .array([.number(0.1), .number(.infinity)]))
    }

    @Test(arguments: ["", "[", "{\"a\":}", "[1,]", "01", "\"\\x\"", "\"\\ud800\"", "tru", "[1] 2"])
    func malformedInputIsMalformed(_ text: String) {
        #expect(throws: JSONReadError.self) { try ParsedJSON(reading: text) }
        do {
            _ = try ParsedJSON(reading: text)
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.message.contains("at byte") || error.message.contains("empty"))
        }
    }

    @Test func limitsAreEnforced() {
        let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        do {
            _ = try ParsedJSON(reading: deep, limits: JSONReadingLimits(maxDepth: 9))
            Issue.record("accepted nesting beyond the limit")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
        do {
            _ = try ParsedJSON(reading: "[1,2,3]", limits: JSONReadingLimits(maxBytes: 6))
            Issue.record("accepted input beyond the byte limit")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
        #expect(JSONReadingLimits(maxDepth: 10_000).maxDepth == 512)
    }
}
