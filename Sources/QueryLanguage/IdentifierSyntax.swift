/// When a field name can be written bare and how it is quoted, in SQL and CQL2.
///
/// A name is written bare only when every reader takes it as a name: ASCII letters, digits and `_`, not
/// starting with a digit, and not a keyword or a word with a meaning inside functions. Everything else is
/// double-quoted, with `"` doubled.
enum IdentifierSyntax {
    /// SQL: also `Table.Field` (qualified names of joined layers) when every part is plain.
    static func sql(_ name: String) -> String {
        var partStart = name.utf8.startIndex
        var isBare = !name.isEmpty
        for index in name.utf8.indices where name.utf8[index] == 0x2E {
            isBare = isBare && isPlainWord(name.utf8[partStart..<index])
            partStart = name.utf8.index(after: index)
        }
        isBare = isBare && isPlainWord(name.utf8[partStart...])
        return isBare ? name : quoted(name)
    }

    /// CQL2: plain words only.
    static func cql2(_ name: String) -> String {
        isPlainWord(name.utf8[...]) ? name : quoted(name)
    }

    static func quoted(_ name: String) -> String {
        QuoteDoubling.enclose(name, in: 0x22)
    }

    private static func isPlainWord(_ bytes: Substring.UTF8View) -> Bool {
        guard let first = bytes.first, !(first >= 0x30 && first <= 0x39) else { return false }
        for byte in bytes {
            let isWordByte = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                || (byte >= 0x30 && byte <= 0x39)
            guard isWordByte else { return false }
        }
        return !ReservedWords.isReserved(bytes)
    }
}

/// String literals in SQL and CQL2: single quotes, with `'` doubled.
enum StringLiteralSyntax {
    static func quoted(_ value: String) -> String {
        QuoteDoubling.enclose(value, in: 0x27)
    }
}

/// Encloses text in quotes, doubling the quotes inside it.
///
/// Works on UTF-8 bytes, never on `Character`s: a quote followed by a combining mark (`'` + U+0302) is a
/// single `Character` in Swift, so a `Character`-level replace would leave that quote undoubled, and the
/// text could end the literal early — an injection. Readers of SQL and CQL2 see bytes, and so does this.
enum QuoteDoubling {
    /// Appends `text` in quotes; text without quotes is appended as it is, with no copy into bytes.
    static func append(_ text: String, quote: UInt8, to output: inout String) {
        if text.utf8.contains(quote) {
            output += enclose(text, in: quote)
        } else {
            output.unicodeScalars.append(Unicode.Scalar(quote))
            output += text
            output.unicodeScalars.append(Unicode.Scalar(quote))
        }
    }

    static func enclose(_ text: String, in quote: UInt8) -> String {
        let utf8 = text.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 2)
        bytes.append(quote)
        for byte in utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }
}
