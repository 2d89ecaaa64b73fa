/// Typed reads of parsed JSON values, each nil when the value has another type, so decoders choose per member
/// whether a wrong type is an error (essentials) or the same as absent (optional members): one vocabulary for
/// every protocol's decoders.
extension ParsedJSON {
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    package var arrayValue: [ParsedJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var objectValue: [String: ParsedJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a 64-bit integer when it is a number with no fractional part inside Int64's range.
    package var int64Value: Int64? {
        guard case .number(let number) = self else { return nil }
        return Int64(exactly: number)
    }

    /// The value as an `Int` when it is an integral number in range.
    package var integerValue: Int? {
        guard case .number(let number) = self else { return nil }
        return Int(exactly: number)
    }

    /// The value as an `Int` when it is an integral number in range and not negative (a count).
    package var countValue: Int? {
        guard let integer = integerValue, integer >= 0 else { return nil }
        return integer
    }
}
