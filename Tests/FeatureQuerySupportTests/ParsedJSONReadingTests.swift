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

    /// The byte-array, slice and buffer entry points skip the generic path; they must read exactly what it
    /// reads, reject what it rejects (invalid UTF-8 inside and outside ASCII runs) and check the byte limit.
    @Test(arguments: [
        #"{"k":"ascii","é":"caf\u00e9 ☕","n":[1,2.5]}"#, #"["a\"b","\ud83d\ude00",""]"#, "\"x\"", "[]",
    ])
    func everyEntryPointReadsTheSame(_ text: String) throws {
        let bytes = Array(text.utf8)
        let generic = try ParsedJSON(reading: AnyCollection(bytes))
        #expect(try ParsedJSON(reading: bytes) == generic)
        #expect(try ParsedJSON(reading: ([0x20] + bytes + [0x20])[1..<(bytes.count + 1)]) == generic)
        #expect(try bytes.withUnsafeBufferPointer { try ParsedJSON(reading: $0) } == generic)
        #expect(try ParsedJSON(reading: text) == generic)
        #expect(throws: JSONReadError.self) { try ParsedJSON(reading: bytes, limits: JSONReadingLimits(maxBytes: bytes.count - 1)) }
    }

    @Test func invalidUTF8InAStringIsRejectedByEveryEntryPoint() throws {
        for bad in [[0x22, 0x61, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]] as [[UInt8]] {
            #expect(throws: JSONReadError.self) { try ParsedJSON(reading: bad) }
            #expect(throws: JSONReadError.self) { try ParsedJSON(reading: bad[...]) }
            #expect(throws: JSONReadError.self) { try ParsedJSON(reading: AnyCollection(bad)) }
        }
        #expect(try ParsedJSON(reading: Array("\"é\"".utf8)) == .string("é"))
    }
}
