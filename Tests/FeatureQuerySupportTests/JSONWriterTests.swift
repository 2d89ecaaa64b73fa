import FeatureQuerySupport
import Testing

/// The shared writer writes what the writers it replaced wrote, byte for byte: their tests compare exact JSON.
@Suite("JSON writer")
struct JSONWriterTests {
    static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 16)
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("integers are their decimal text, at the ends of their types too", arguments: [
        Int64.min, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_764_131_251_042, Int64.max,
    ])
    func integers(value: Int64) {
        #expect(Self.written { $0.integer(value) } == String(value))
        #expect(Self.written { $0.integer(Int(value)) } == String(value))
        #expect(Self.written { $0.quotedInteger(value) } == "\"\(value)\"")
        if value >= 0 {
            #expect(Self.written { $0.integer(UInt64(value)) } == String(value))
            #expect(Self.written { $0.quotedInteger(UInt64(value)) } == "\"\(value)\"")
        }
        #expect(JSONWriter.digitCount(value) == String(value).utf8.count)
    }

    @Test func anIntegerListIsItsIntegersJoinedByCommasAfterWhatWasWritten() {
        var generator = SplitMix64(seed: 7)
        var values: [Int64] = [Int64.min, -1, 0, 9, 10, Int64.max]
        for _ in 0..<1_000 { values.append(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64)) }
        let written = Self.written { writer in
            writer.raw("[")
            writer.integerList(values[2...])
            writer.raw("]")
        }
        #expect(written == "[" + values[2...].map(String.init).joined(separator: ",") + "]")
        #expect(Self.written { $0.integerList([]) } == "")
        #expect(Self.written { $0.integerList([Int64.min]) } == String(Int64.min))
    }

    @Test func largestUnsignedInteger() {
        #expect(Self.written { $0.integer(UInt64.max) } == String(UInt64.max))
    }

    @Test("numbers: integral ones below the limit as integers, others as Swift writes them, non-finite as null")
    func numbers() {
        #expect(Self.written { $0.number(3) } == "3")
        #expect(Self.written { $0.number(-0.0) } == "0")
        #expect(Self.written { $0.number(0.5) } == "0.5")
        #expect(Self.written { $0.number(-118.805) } == "-118.805")
        #expect(Self.written { $0.number(1e15) } == "1000000000000000")
        #expect(Self.written { $0.number(9_007_199_254_740_990) } == "9007199254740990")
        #expect(Self.written { $0.number(9_007_199_254_740_992) } == "9007199254740992.0")
        #expect(Self.written { $0.number(1e16) } == "1e+16")
        #expect(Self.written { $0.number(1e300) } == "1e+300")
        #expect(Self.written { $0.number(.nan) } == "null")
        #expect(Self.written { $0.number(-.infinity) } == "null")
        // A lower limit: integral values from it up keep Swift's form.
        #expect(Self.written { $0.number(999_999_999_999_999, integralLimit: 1e15) } == "999999999999999")
        #expect(Self.written { $0.number(1e15, integralLimit: 1e15) } == "1000000000000000.0")
        #expect(Self.written { $0.number(2.5, integralLimit: 1e15) } == "2.5")
    }

    @Test("separators: a comma before each member or element but the first of its container")
    func separators() {
        let text = Self.written { json in
            json.byte(UInt8(ascii: "{"))
            for name in ["a", "b"] {
                json.separator()
                json.key(escaping: name)
                json.byte(UInt8(ascii: "["))
                for value in [1, 2] {
                    json.separator()
                    json.integer(value)
                }
                json.byte(UInt8(ascii: "]"))
            }
            json.separator()
            json.key("c")
            json.raw("{}")
            json.separator()
            json.key("d")
            json.bool(false)
            json.byte(UInt8(ascii: "}"))
        }
        #expect(text == #"{"a":[1,2],"b":[1,2],"c":{},"d":false}"#)
    }

    @Test func trailingCommaIsDropped() {
        #expect(Self.written { $0.raw("[1,"); $0.dropTrailingComma(); $0.dropTrailingComma(); $0.raw("]") } == "[1]")
    }

    @Test("keys from data are escaped, literal ones copied")
    func keys() {
        #expect(Self.written { $0.key(escaping: "a\"b") } == #""a\"b":"#)
        #expect(Self.written { $0.key("plain") } == #""plain":"#)
    }

    @Test("a timestamp is RFC3339's text, quoted, for instants across the calendar and at its clamps", arguments: [
        Int64(0), 1, 999, 1_000, 86_399_999, 86_400_000, 1_764_131_251_042, 951_782_400_000, 4_102_444_799_999,
        -1, -999, -1_000, -86_400_001, -62_135_596_800_000, -62_135_596_800_001, 253_402_300_799_999,
        253_402_300_800_000, Int64.min, Int64.max,
    ])
    func timestampMatchesRFC3339(milliseconds: Int64) {
        #expect(Self.written { $0.timestamp(milliseconds: milliseconds) } == "\"" + RFC3339.string(fromMilliseconds: milliseconds) + "\"")
    }

    @Test("a parsed value: members sorted, the shared escaper, integers as integers")
    func parsedValue() {
        let value = ParsedJSON.object([
            "k\u{2028}": .array([.string("a\u{7F}"), .number(1), .number(0.5), .null, .bool(true)]), "a": .object([:]),
        ])
        #expect(value.jsonText == #"{"a":{},"k\u2028":["a\u007f",1,0.5,null,true]}"#)
        #expect(Self.written { $0.value(value) } == value.jsonText)
    }
}
