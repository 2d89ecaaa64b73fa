package import FeatureQuerySupport

/// Reads the members of one JSON object of a request, turning every mismatch with the contract into a
/// ``ContractError`` that names the JSON path (`query.extent.xmin`) and what was found there.
///
/// A member that is present with the value `null` counts as present with the wrong type, as in the schema.
package struct RequestFieldReader {
    package let members: [String: ParsedJSON]
    /// The object's own path: "" for the message, `query`, `targets[2]`.
    package let path: String

    /// Reads `value` as an object found at `path`.
    package init(_ value: ParsedJSON, path: String) throws(ContractError) {
        guard case .object(let members) = value else {
            throw ContractError.at(path, .invalidType, "expected an object, found \(Self.describe(value))")
        }
        self.members = members
        self.path = path
    }

    /// The path of member `name`.
    package func childPath(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    package func has(_ name: String) -> Bool { members[name] != nil }

    /// Refuses members not in `allowed` (the first in sorted order, so the answer is stable).
    package func rejectUnknown(allowed: [String]) throws(ContractError) {
        guard members.keys.contains(where: { !allowed.contains($0) }) else { return }  // the usual case, no array
        let unknown = members.keys.filter { !allowed.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let shown = Self.excerpt(first)
        var message = "unknown field"
        if let suggestion = Self.suggestion(for: first, among: allowed) { message += " (did you mean \"\(suggestion)\"?)" }
        let owner = path.isEmpty ? "a request" : path
        message += "; the fields of \(owner) are \(allowed.joined(separator: ", "))"
        if unknown.count > 1 { message += " (\(unknown.count) unknown fields in all)" }
        var details: [String: ParsedJSON] = ["path": .string(childPath(shown)), "field": .string(shown)]
        if unknown.count > 1 { details["fields"] = .array(unknown.prefix(20).map { .string(Self.excerpt($0)) }) }
        throw ContractError(.unknownField, "\(childPath(shown)): \(message)", details: .object(details))
    }

    /// A required member, or `missing_field`.
    package func required(_ name: String) throws(ContractError) -> ParsedJSON {
        guard let value = members[name] else {
            let owner = path.isEmpty ? "the request" : path
            throw ContractError.at(childPath(name), .missingField, "required field missing from \(owner)")
        }
        return value
    }

    /// A string of `minLength...maxLength` characters (Unicode scalars, as JSON Schema counts them).
    package func string(_ name: String, required: Bool = false, length: ClosedRange<Int> = 1...Int.max) throws(ContractError) -> String? {
        guard let value = try member(name, required: required) else { return nil }
        guard case .string(let text) = value else {
            throw ContractError.at(childPath(name), .invalidType, "expected a string, found \(Self.describe(value))")
        }
        // Counting scalars walks the string; the UTF-8 length (at hand) bounds the count from both sides
        // (1 to 4 bytes a scalar), which settles most strings.
        let bytes = text.utf8.count
        if bytes <= length.upperBound, (bytes + 3) / 4 >= length.lowerBound { return text }
        let count = text.unicodeScalars.count
        guard length.contains(count) else {
            let rule = length.upperBound == Int.max
                ? "at least \(length.lowerBound) characters" : "\(length.lowerBound) to \(length.upperBound) characters"
            let problem = count == 0 ? "is empty" : "has \(count) characters"
            throw ContractError.at(childPath(name), .invalidValue, "\(problem); expected \(rule)")
        }
        return text
    }

    /// An integer in `range`. JSON numbers arrive as Doubles, so integrality is checked (`2.0` counts as 2, as
    /// in JSON Schema); `1.5` is `invalid_type`, an integer outside `range` `invalid_value`.
    package func integer(_ name: String, required: Bool = false, in range: ClosedRange<Int64>) throws(ContractError) -> Int64? {
        guard let value = try member(name, required: required) else { return nil }
        return try Self.integer(value, path: childPath(name), in: range)
    }

    /// `path` is made only for an error: most values are valid, and a path is an allocation.
    package static func integer(
        _ value: ParsedJSON, path: @autoclosure () -> String, in range: ClosedRange<Int64>
    ) throws(ContractError) -> Int64 {
        guard case .number(let number) = value, number.isFinite, number.rounded(.towardZero) == number else {
            throw ContractError.at(path(), .invalidType, "expected an integer, found \(describe(value))")
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw ContractError.at(
                path(), .invalidValue, "\(describe(value)) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return Int64(number)
    }

    /// A finite number.
    package func number(_ name: String, required: Bool = false) throws(ContractError) -> Double? {
        guard let value = try member(name, required: required) else { return nil }
        guard case .number(let number) = value else {
            throw ContractError.at(childPath(name), .invalidType, "expected a number, found \(Self.describe(value))")
        }
        guard number.isFinite else {
            throw ContractError.at(childPath(name), .invalidValue, "the number is too large to represent")
        }
        return number
    }

    package func bool(_ name: String) throws(ContractError) -> Bool? {
        guard let value = members[name] else { return nil }
        guard case .bool(let flag) = value else {
            throw ContractError.at(childPath(name), .invalidType, "expected true or false, found \(Self.describe(value))")
        }
        return flag
    }

    package func array(_ name: String, required: Bool = false) throws(ContractError) -> [ParsedJSON]? {
        guard let value = try member(name, required: required) else { return nil }
        guard case .array(let items) = value else {
            throw ContractError.at(childPath(name), .invalidType, "expected an array, found \(Self.describe(value))")
        }
        return items
    }

    /// One of `allowed` strings.
    package func oneOf(_ name: String, _ allowed: [String]) throws(ContractError) -> String? {
        guard let text = try string(name, length: 0...Int.max) else { return nil }
        guard allowed.contains(text) else {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            var message = "\"\(Self.excerpt(text))\" is not one of \(list)"
            if let suggestion = Self.suggestion(for: text, among: allowed) { message += " (did you mean \"\(suggestion)\"?)" }
            throw ContractError.at(childPath(name), .invalidValue, message)
        }
        return text
    }

    private func member(_ name: String, required: Bool) throws(ContractError) -> ParsedJSON? {
        if required { return try self.required(name) }
        return members[name]
    }

    // MARK: Describing values

    /// A short description of a JSON value for messages: `the string "abc"`, `the number 1.5`, `null`.
    package static func describe(_ value: ParsedJSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "the boolean \(flag)"
        case .number(let number): "the number \(format(number))"
        case .string(let text): "the string \"\(excerpt(text))\""
        case .array(let items): items.isEmpty ? "an empty array" : "an array of \(items.count)"
        case .object: "an object"
        }
    }

    package static func format(_ number: Double) -> String {
        if number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    /// `text`, cut to 60 characters with an ellipsis, and with control characters shown as `?`.
    package static func excerpt(_ text: String, limit: Int = 60) -> String {
        var result = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == limit {
                result += "…"
                break
            }
            result.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
        }
        return result
    }

    /// The allowed name closest to `name` (same letters ignoring case, or at most two edits), if any.
    package static func suggestion(for name: String, among allowed: [String]) -> String? {
        let lowered = name.lowercased()
        if let same = allowed.first(where: { $0.lowercased() == lowered }) { return same }
        guard name.utf8.count <= 64 else { return nil }
        let candidates = allowed.map { ($0, editDistance(Array(lowered.utf8), Array($0.lowercased().utf8))) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension ContractError {
    /// A rejection about the value at `path`: the message starts with the path, and `details.path` holds it.
    package static func at(_ path: String, _ code: Code, _ message: String, details extra: [String: ParsedJSON] = [:]) -> ContractError {
        var details = extra
        if !path.isEmpty { details["path"] = .string(path) }
        let text = path.isEmpty ? message : "\(path): \(message)"
        return ContractError(code, text, details: details.isEmpty ? nil : .object(details))
    }
}
