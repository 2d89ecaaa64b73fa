import FeatureQuerySupport

/// Escaping for text and attribute values in the status page: the page shows request ids, error messages and
/// settings, which come from messages and operators and must never become markup.
enum HTMLText {
    static func escaped(_ text: String) -> String { HTMLEscaping.escaped(text) }

    /// An optional number as the page writes it: the number, or an en dash for "not known".
    static func number(_ value: Int64?) -> String {
        value.map(String.init) ?? "–"
    }
}
