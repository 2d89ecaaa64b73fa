/// Escaping for text and attribute values in the HTML the package serves (the worker's status page, the
/// sample server's sign-in and authorize pages): what they show comes from messages, requests and operators and
/// must never become markup.
package enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in element text and in quoted
    /// attribute values.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
