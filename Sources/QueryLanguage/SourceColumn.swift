/// Turns the UTF-8 offsets the lexer works in into the 1-based character columns people see.
///
/// Only errors need a column, so the conversion runs on the error path alone and costs one pass over the
/// text before the offset.
enum SourceColumn {
    static func column(in bytes: [UInt8], at offset: Int) -> Int {
        let end = max(0, min(offset, bytes.count))
        var ascii = true
        for index in 0..<end where bytes[index] >= 0x80 {
            ascii = false
            break
        }
        if ascii { return end + 1 }
        return String(decoding: bytes[0..<end], as: UTF8.self).count + 1
    }

    static func column(in text: String, at offset: Int) -> Int {
        let utf8 = text.utf8
        let end = max(0, min(offset, utf8.count))
        let prefix = utf8.prefix(end)
        if prefix.allSatisfy({ $0 < 0x80 }) { return end + 1 }
        return String(decoding: prefix, as: UTF8.self).count + 1
    }

    /// A short, printable excerpt of source text for messages: long names and strings are cut.
    static func excerpt(_ text: String, limit: Int = 40) -> String {
        if text.unicodeScalars.count <= limit { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
    }
}
