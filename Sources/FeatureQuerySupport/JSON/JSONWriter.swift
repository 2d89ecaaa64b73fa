/// Writes JSON straight into UTF-8 bytes: the package's one JSON writer (outcome messages, log lines, the
/// sample server's responses, values read from services written back out).
///
/// No Foundation, no `Codable`, no tree: callers write members and elements in order, and each call is a few
/// byte copies. These writers are on hot paths (a result can hold millions of ids, the sample server writes
/// pages of tens of kilobytes thousands of times a second, every log line goes through here), so the small
/// calls are `@inlinable`: other modules inline them as they did their own writers.
///
/// Strings are escaped by ``JSONString``; what is written as it is (``raw(_:)-(StaticString)``, keys given as
/// `StaticString`, ``rawText(_:)``) must already be JSON.
package struct JSONWriter {
    @usableFromInline var buffer: [UInt8]

    /// An empty writer whose buffer has room for `capacity` bytes: callers size it for what they write, so
    /// that a page or a result grows its array once or not at all.
    @inlinable
    package init(capacity: Int) {
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    @inlinable
    package var bytes: [UInt8] { buffer }

    /// The number of bytes written so far.
    @inlinable
    package var count: Int { buffer.count }

    /// Appends text known at compile time (punctuation, `"key":` prefixes, literals) as it is.
    @inlinable
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends bytes that are already JSON (a cached fragment).
    @inlinable
    package mutating func raw(_ fragment: [UInt8]) {
        buffer.append(contentsOf: fragment)
    }

    /// Appends bytes that are already JSON (part of a message or a page).
    @inlinable
    package mutating func raw(_ fragment: ArraySlice<UInt8>) {
        buffer.append(contentsOf: fragment)
    }

    /// Appends bytes that are already JSON, from a packed table of fragments.
    @inlinable
    package mutating func raw(_ fragment: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: fragment)
    }

    /// Appends text that is already JSON (a number or a fragment built elsewhere) as it is.
    @inlinable
    package mutating func rawText(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    @inlinable
    package mutating func byte(_ value: UInt8) {
        buffer.append(value)
    }

    @inlinable
    package mutating func comma() {
        buffer.append(UInt8(ascii: ","))
    }

    /// The comma before a member or an element, unless the last byte opened the object or array (or nothing
    /// was written): for writers that do not track whether an item is the first of its container.
    @inlinable
    package mutating func separator() {
        if let last = buffer.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
            buffer.append(UInt8(ascii: ","))
        }
    }

    /// Removes a trailing comma left by a loop that writes `item,` each time.
    @inlinable
    package mutating func dropTrailingComma() {
        if buffer.last == UInt8(ascii: ",") { buffer.removeLast() }
    }

    /// Appends `text` as a JSON string literal, escaped by the package's one escaper.
    @inlinable
    package mutating func string(_ text: String) {
        JSONString.append(text, to: &buffer)
    }

    /// Appends `"name":` for a name known at compile time, copied as it is (so it must need no escaping).
    @inlinable
    package mutating func key(_ name: StaticString) {
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    /// Appends `"name":` for a name that comes from data (a field, a metadata key), escaped.
    @inlinable
    package mutating func key(escaping name: String) {
        JSONString.append(name, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    @inlinable
    package mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends an RFC 3339 UTC timestamp with milliseconds (``RFC3339/string(fromMilliseconds:)``'s text) as a
    /// JSON string, without making the string.
    @inlinable
    package mutating func timestamp(milliseconds: Int64) {
        RFC3339.appendQuoted(milliseconds: milliseconds, to: &buffer)
    }
}
