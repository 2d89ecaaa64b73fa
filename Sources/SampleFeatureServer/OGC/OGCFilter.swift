import QueryLanguage

/// The Part 3 `filter` parameter: CQL2 text or CQL2 JSON, read into the query language's tree, so that the
/// OGC face evaluates it with the same evaluator the ArcGIS face uses for `where`.
enum OGCFilter {
    /// The CQL2 encodings this face reads.
    static let languages = ["cql2-text"]

    static func parse(_ text: String, language: String) throws(OGCError) -> WhereClause {
        switch language.lowercased() {
        case "cql2-text":
            do {
                return try WhereClause(cql2Text: text)
            } catch {
                throw .invalidParameter("'filter' is not valid CQL2 text: \(error.message)")
            }
        default:
            throw .invalidParameter("'filter-lang' must be one of \(languages.joined(separator: ", ")); found '\(language.prefix(40))'")
        }
    }
}
