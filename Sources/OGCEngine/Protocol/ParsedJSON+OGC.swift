import FeatureQuerySupport

/// Typed reads of parsed JSON, nil for another type: OGC documents are read leniently (optional members of
/// the wrong type count as absent), essentials are checked by the decoders.
extension ParsedJSON {
    var text: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var items: [ParsedJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var members: [String: ParsedJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// A non-negative integral number.
    var count: Int? {
        guard case .number(let value) = self, let integer = Int(exactly: value), integer >= 0 else { return nil }
        return integer
    }
}
