/// Escaping for text and attribute values in the status page: the page shows request ids, error messages and
/// settings, which come from messages and operators and must never become markup.
enum HTMLText {
    static func escaped(_ text: String) -> String {
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

    /// An optional number as the page writes it: the number, or an en dash for "not known".
    static func number(_ value: Int64?) -> String {
        value.map(String.init) ?? "–"
    }
}
