extension JSONWriter {
    /// Appends a parsed value as compact JSON: what a service sent, written back out (attributes into GeoJSON
    /// properties, error details into outcome messages).
    ///
    /// Object members are sorted by name so output is stable; numbers as ``number(_:integralLimit:)`` writes
    /// them (integers up to 2^53 as integers, `null` for what JSON cannot hold).
    package mutating func value(_ value: ParsedJSON) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            byte(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { comma() }
                self.value(item)
            }
            byte(UInt8(ascii: "]"))
        case .object(let members):
            byte(UInt8(ascii: "{"))
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { comma() }
                key(escaping: name)
                if let member = members[name] { self.value(member) }
            }
            byte(UInt8(ascii: "}"))
        }
    }
}

extension ParsedJSON {
    /// The value as compact JSON text (``JSONWriter/value(_:)``), for messages and strings that hold JSON.
    package var jsonText: String {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
