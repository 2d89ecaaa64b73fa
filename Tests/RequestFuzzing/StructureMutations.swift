package import FeatureQuerySupport

/// Mutations that aim at a decoder's limits rather than its syntax: fields dropped, duplicated or retyped,
/// numbers no integer or double holds, nesting far past the depth limit, strings around the size limit, and
/// text that is not UTF-8. Each takes a valid document and returns the bytes of the hostile one.
package enum StructureMutations {
    /// Where the contract keeps values a mutation may aim at, beside a random member of the root.
    static let places: [[PathStep]] = [
        [.key("requestId")], [.key("taskId")], [.key("timeoutMs")], [.key("deadline")], [.key("credential")],
        [.key("progress")],
        [.key("cancel")], [.key("query"), .key("maxFeatures")], [.key("query"), .key("where")],
        [.key("query"), .key("result")], [.key("query"), .key("extent"), .key("xmin")],
        [.key("query"), .key("outSpatialReference"), .key("wkid")], [.key("query"), .key("geometry")],
        [.key("targets"), .index(0), .key("url")], [.key("targets"), .index(0), .key("layers"), .index(0)],
        [.key("targets"), .index(0), .key("type")], [.key("targets")], [.key("query")],
        [.key("query"), .key("objectIds"), .index(0)], [.key("query"), .key("time"), .key("start")],
        [.key("query"), .key("orderBy"), .index(0), .key("field")],
        [.key("query"), .key("statistics"), .index(0), .key("percentile")],
        [.key("query"), .key("relationship"), .key("name")], [.key("query"), .key("relatedWhere")],
        [.key("query"), .key("relatedOrderBy"), .index(0), .key("field")],
    ]

    /// A step of a path into a document.
    enum PathStep: Hashable {
        case key(String)
        case index(Int)
    }

    /// A text no contract example has, replaced in the serialized bytes by the hostile literal.
    static let marker = "@@HOSTILE-VALUE@@"
    static let markerBytes = Array("\"@@HOSTILE-VALUE@@\"".utf8)

    /// Numbers at and past every limit a reader may have.
    static let hugeNumbers: [String] = [
        "1e999", "-1e999", "1e-999", "123456789012345678901234567890", "9007199254740993", "-9007199254740993",
        "18446744073709551616", "-9223372036854775809", "9223372036854775807", "-0", "-0.0", "0e0", "1E+2", "4326.0000000001",
        "0.0000000000000000000000000000000000001", String(repeating: "9", count: 400), "1" + String(repeating: "0", count: 5_000),
        "2147483648", "-2147483649", "1.7976931348623157e309",
    ]

    /// Drops, duplicates or retypes one field the contract knows.
    package static func fieldSurgery(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8] {
        let place = pickPlace(document, &random)
        switch Int.random(in: 0...2, using: &random) {
        case 0: return document.setting(place, to: nil).fuzzBytes
        case 1:
            let current = document.value(at: place) ?? .null
            return retyped(current, &random).map { document.setting(place, to: $0).fuzzBytes } ?? document.fuzzBytes
        default:
            // A second member of the same name in the same object: readers disagree on which one wins.
            guard case .key(let name)? = place.last else { return document.fuzzBytes }
            let duplicate = Bool.random(using: &random) ? (document.value(at: place) ?? .null)
                : ValueMutations.randomValue(&random)
            var text = Array("\"\(name)\":".utf8)
            text += duplicate.fuzzBytes + Array(",".utf8)
            let bytes = document.setting(place, to: document.value(at: place) ?? .null).fuzzBytes
            guard let at = firstRange(of: Array("\"\(name)\":".utf8), in: bytes) else { return bytes }
            return Array(bytes[..<at]) + text + Array(bytes[at...])
        }
    }

    /// A huge or odd number in a numeric or id place.
    package static func hugeNumber(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8] {
        let literal = hugeNumbers[Int.random(in: 0..<hugeNumbers.count, using: &random)]
        return substitute(document, at: pickPlace(document, &random), with: Array(literal.utf8))
    }

    /// Arrays or objects nested past (or just within) the depth limit, in a field or as the whole message,
    /// closed or left open.
    package static func deepNesting(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8] {
        let depth = [20, 30, 31, 32, 33, 64, 500, 10_000, 200_000][Int.random(in: 0...8, using: &random)]
        let (open, close): ([UInt8], [UInt8]) = Bool.random(using: &random)
            ? (Array("[".utf8), Array("]".utf8)) : (Array("{\"a\":".utf8), Array("}".utf8))
        var nested = [UInt8]()
        nested.reserveCapacity(depth * (open.count + close.count) + 1)
        for _ in 0..<depth { nested += open }
        nested += Array("1".utf8)
        if Int.random(in: 0...4, using: &random) > 0 { for _ in 0..<depth { nested += close } }
        if Int.random(in: 0...5, using: &random) == 0 { return nested }
        return substitute(document, at: pickPlace(document, &random), with: nested)
    }

    /// A long string in an id, a clause, a URL, or as a member's name.
    package static func longString(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8] {
        let length = [129, 4_096, 100_000, 999_000, 1_000_001, 2_000_000][Int.random(in: 0...5, using: &random)]
        let unit = ["a", "é", "😀", "\\\\", "\\u00e9", " "][Int.random(in: 0...5, using: &random)]
        var text = Array("\"".utf8)
        let unitBytes = Array(unit.utf8)
        text.reserveCapacity(length + 2)
        while text.count < length { text += unitBytes }
        text += Array("\"".utf8)
        if Int.random(in: 0...3, using: &random) == 0, case .object(var members) = document {
            // As a name: the unknown-field message quotes it; the quote must stay short.
            members[marker] = .number(1)
            return replace(markerBytes, with: text, in: ParsedJSON.object(members).fuzzBytes)
        }
        return substitute(document, at: pickPlace(document, &random), with: text)
    }

    /// Bytes that are not UTF-8, a raw control character, or an escaped lone surrogate, inside a string.
    package static func badUTF8(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = document.fuzzBytes
        let inserted: [UInt8]
        switch Int.random(in: 0...3, using: &random) {
        case 0: inserted = Array(["\\ud800", "\\udc00", "\\ud800\\u0041", "\\udbff\\udbff", "\\u0000", "\\uZZZZ", "\\x41"][
            Int.random(in: 0...6, using: &random)].utf8)
        case 1: inserted = [UInt8.random(in: 0...0x1F, using: &random)]
        default: inserted = ByteMutations.invalidUTF8[Int.random(in: 0..<ByteMutations.invalidUTF8.count, using: &random)]
        }
        // After an opening quote: inside a member name or a string value.
        let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
        let at = quotes.isEmpty ? 0 : quotes[Int.random(in: 0..<quotes.count, using: &random)] + 1
        bytes.insert(contentsOf: inserted, at: at)
        return bytes
    }

    /// Not an object: nothing, blanks, a scalar, the request in an array, two requests, trailing text, a BOM,
    /// a comment, `NaN`. `nil` is a tombstone.
    package static func wrongShape(_ document: ParsedJSON, _ random: inout SplitMix64) -> [UInt8]? {
        let bytes = document.fuzzBytes
        switch Int.random(in: 0...13, using: &random) {
        case 0: return nil
        case 1: return []
        case 2: return Array("   \n\t".utf8)
        case 3: return Array("null".utf8)
        case 4: return Array("42".utf8)
        case 5: return Array("\"request\"".utf8)
        case 6: return Array("[".utf8) + bytes + Array("]".utf8)
        case 7: return bytes + bytes
        case 8: return bytes + Array(" x".utf8)
        case 9: return [0xEF, 0xBB, 0xBF] + bytes
        case 10: return Array("// a request\n".utf8) + bytes
        case 11: return substitute(document, at: pickPlace(document, &random), with: Array("NaN".utf8))
        case 12: return Array("{\"requestId\":\"x\",}".utf8)
        default: return bytes + [0x00]
        }
    }

    // MARK: Helpers

    /// A place that exists in the document two times in three, else any place of the list (which the
    /// mutation then creates), or a random root member.
    static func pickPlace(_ document: ParsedJSON, _ random: inout SplitMix64) -> [PathStep] {
        let present = places.filter { document.value(at: $0) != nil }
        if !present.isEmpty, Int.random(in: 0...2, using: &random) > 0 {
            return present[Int.random(in: 0..<present.count, using: &random)]
        }
        if Bool.random(using: &random) { return places[Int.random(in: 0..<places.count, using: &random)] }
        return [.key(ValueMutations.names[Int.random(in: 0..<ValueMutations.names.count, using: &random)])]
    }

    /// Another JSON type for a value (a number for a string, an object for an array, ...); `nil` never.
    static func retyped(_ value: ParsedJSON, _ random: inout SplitMix64) -> ParsedJSON? {
        let choices: [ParsedJSON] = [
            .null, .bool(true), .number(1), .string("1"), .array([value]), .object(["value": value]), .string("true"),
        ]
        let different = choices.filter { $0.typeName != value.typeName }
        return different[Int.random(in: 0..<different.count, using: &random)]
    }

    /// The document with the value at `place` replaced by raw bytes (which need not be JSON).
    static func substitute(_ document: ParsedJSON, at place: [PathStep], with literal: [UInt8]) -> [UInt8] {
        replace(markerBytes, with: literal, in: document.setting(place, to: .string(marker)).fuzzBytes)
    }

    static func replace(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard let at = firstRange(of: pattern, in: bytes) else { return bytes }
        return Array(bytes[..<at]) + replacement + Array(bytes[(at + pattern.count)...])
    }

    static func firstRange(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { start in
            bytes[start] == pattern[0] && bytes[start..<(start + pattern.count)].elementsEqual(pattern)
        }
    }
}

extension ParsedJSON {
    /// The JSON type's name, to pick a value of another type.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value at a path, `nil` when a step is missing.
    func value(at path: some Collection<StructureMutations.PathStep>) -> ParsedJSON? {
        guard let step = path.first else { return self }
        switch (step, self) {
        case (.key(let name), .object(let members)): return members[name]?.value(at: path.dropFirst())
        case (.index(let index), .array(let items)) where items.indices.contains(index):
            return items[index].value(at: path.dropFirst())
        default: return nil
        }
    }

    /// The document with the value at `path` replaced (`nil` removes it), creating missing objects and
    /// arrays on the way; a step that meets another type replaces that value.
    func setting(_ path: some Collection<StructureMutations.PathStep>, to newValue: ParsedJSON?) -> ParsedJSON {
        guard let step = path.first else { return newValue ?? .null }
        let rest = path.dropFirst()
        switch step {
        case .key(let name):
            var members: [String: ParsedJSON] = if case .object(let existing) = self { existing } else { [:] }
            if rest.isEmpty, newValue == nil {
                members[name] = nil
            } else {
                members[name] = (members[name] ?? .null).setting(rest, to: newValue)
            }
            return .object(members)
        case .index(let index):
            var items: [ParsedJSON] = if case .array(let existing) = self { existing } else { [] }
            while items.count <= index { items.append(.null) }
            if rest.isEmpty, newValue == nil {
                items.remove(at: index)
            } else {
                items[index] = items[index].setting(rest, to: newValue)
            }
            return .array(items)
        }
    }
}
