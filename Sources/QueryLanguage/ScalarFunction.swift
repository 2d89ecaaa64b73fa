/// The functions of the subset: those ArcGIS standardized queries accept (and CQL2's `CASEI`).
///
/// Anything else is refused when the clause is parsed (``QueryLanguageError/Code/unknownFunction``), so a
/// database-specific function can never reach a server through the worker.
package indirect enum ScalarFunction: Hashable, Sendable {
    case upper(FilterExpression)
    case lower(FilterExpression)
    /// CQL2's `CASEI(x)`: compares case-insensitively. Evaluates as `UPPER(x)`, and is written as `UPPER` in SQL.
    case caseInsensitive(FilterExpression)
    /// The length in characters (Unicode scalars).
    case charLength(FilterExpression)
    case abs(FilterExpression)
    /// `ROUND(x)` or `ROUND(x, digits)`, half away from zero.
    case round(FilterExpression, digits: Int?)
    /// `SUBSTRING(x FROM start [FOR length])`, 1-based.
    case substring(FilterExpression, start: FilterExpression, length: FilterExpression?)
    /// `TRIM([edge] [character] FROM x)`; the character defaults to a space.
    case trim(FilterExpression, edge: TrimEdge, character: Unicode.Scalar?)
    case cast(FilterExpression, to: CastTarget)
    /// Today's date (UTC).
    case currentDate
    /// Now (UTC).
    case currentTimestamp

    /// The subexpressions, in source order.
    package var arguments: [FilterExpression] {
        switch self {
        case .upper(let x), .lower(let x), .caseInsensitive(let x), .charLength(let x), .abs(let x),
            .round(let x, _), .trim(let x, _, _), .cast(let x, _):
            return [x]
        case .substring(let x, let start, let length):
            return length.map { [x, start, $0] } ?? [x, start]
        case .currentDate, .currentTimestamp:
            return []
        }
    }

    /// The SQL name, as it is rendered.
    package var name: String {
        switch self {
        case .upper, .caseInsensitive: return "UPPER"
        case .lower: return "LOWER"
        case .charLength: return "CHAR_LENGTH"
        case .abs: return "ABS"
        case .round: return "ROUND"
        case .substring: return "SUBSTRING"
        case .trim: return "TRIM"
        case .cast: return "CAST"
        case .currentDate: return "CURRENT_DATE"
        case .currentTimestamp: return "CURRENT_TIMESTAMP"
        }
    }

    /// The names a person may use, for error messages.
    static let sqlNames = [
        "ABS", "CAST", "CHAR_LENGTH", "CURRENT_DATE", "CURRENT_TIMESTAMP", "LOWER", "ROUND", "SUBSTRING", "TRIM",
        "UPPER",
    ]
}
