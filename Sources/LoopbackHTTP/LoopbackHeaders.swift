/// HTTP header fields in the order they were sent, with case-insensitive lookup.
///
/// A plain value type rather than NIO's `HTTPHeaders`, so that handlers written against this module
/// (tests, the sample feature server) never need to import SwiftNIO.
package struct LoopbackHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line.
    package struct Field: Sendable, Hashable {
        /// The name as sent; compare case-insensitively.
        package var name: String
        /// The value, without surrounding white space.
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, repeated names included, in order.
    package private(set) var fields: [Field]

    /// Fields in order, as (name, value) pairs.
    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for a name, compared case-insensitively.
    package subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value for a name, compared case-insensitively.
    package func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Whether a field with this name is present.
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any others of the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field with this name by one field.
    package mutating func replace(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field with this name.
    package mutating func remove(_ name: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
    }

    /// The number of fields, repeated names counted each time.
    package var count: Int { fields.count }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    /// The value without leading and trailing spaces and tabs.
    func trimmingOptionalWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
