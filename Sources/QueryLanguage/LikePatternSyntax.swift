/// The escape rules of `LIKE` patterns, and the translation between SQL's `ESCAPE 'c'` and CQL2's fixed `\`.
enum LikePatternSyntax {
    /// Why an SQL pattern is malformed for its escape character (which must precede `%`, `_` or itself), or nil.
    static func problem(in pattern: String, escape: Unicode.Scalar) -> String? {
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == escape else { continue }
            guard let next = iterator.next() else {
                return "ends with the escape character '\(Character(escape))'; escape only %, _ or the escape itself"
            }
            if next != "%", next != "_", next != escape {
                return "has '\(Character(escape))\(Character(next))': the escape character may precede only %, _ "
                    + "or itself"
            }
        }
        return nil
    }

    /// The pattern's length in UTF-8 bytes as the matcher sees it: escape characters that escape something
    /// are not counted, so `'100!%' ESCAPE '!'` (SQL) and `'100\%'` (CQL2) both measure 4.
    static func matchedLength(_ pattern: String, escape: Unicode.Scalar?) -> Int {
        guard let escape else { return pattern.utf8.count }
        var length = 0
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == escape, let next = iterator.next() {
                length += next.utf8.count
            } else {
                length += scalar.utf8.count
            }
        }
        return length
    }

    /// A CQL2 pattern with `\x` for any x other than `%`, `_` and `\` read as a plain x, so that the result
    /// escapes only what must be escaped. A trailing lone `\` is refused.
    static func normalizeCQL2(_ pattern: String) -> (pattern: String, problem: String?) {
        guard pattern.utf8.contains(0x5C) else { return (pattern, nil) }
        var result = String.UnicodeScalarView()
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let next = iterator.next() else { return (pattern, "ends with a lone \\; write \\\\ for a backslash") }
            if next == "%" || next == "_" || next == "\\" { result.append(scalar) }
            result.append(next)
        }
        return (String(result), nil)
    }

    /// The pattern rewritten for CQL2, where `\` is always the escape: `ESCAPE '!'` with `'100!%'` becomes
    /// `'100\%'`, and a literal backslash becomes `\\`.
    static func cql2Pattern(_ pattern: String, escape: Unicode.Scalar?) -> String {
        if escape == "\\" { return pattern }
        if escape == nil, !pattern.utf8.contains(0x5C) { return pattern }
        var result = String.UnicodeScalarView()
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if let escape, scalar == escape, let next = iterator.next() {
                if next == "%" || next == "_" || next == "\\" { result.append("\\") }
                result.append(next)
            } else if scalar == "\\" {
                result.append(contentsOf: "\\\\".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
