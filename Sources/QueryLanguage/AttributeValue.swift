import FeatureQuerySupport

/// One attribute of a feature, as the evaluator sees it.
///
/// ArcGIS returns numbers, strings, nulls and dates (epoch milliseconds); OGC GeoJSON properties map onto
/// the same cases. GlobalID and GUID values are strings.
package enum AttributeValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    /// Milliseconds since 1970-01-01 UTC, as ArcGIS date fields hold them.
    case date(Int64)

    /// The value of a literal written in a clause.
    package init(_ literal: Literal) {
        switch literal {
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .date(let date): self = .date(date.millisecondsSinceEpoch)
        case .timestamp(let timestamp): self = .date(timestamp.millisecondsSinceEpoch)
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// The result of a condition under SQL's three-valued logic: a comparison with a NULL is neither true nor
/// false but unknown, and a record is selected only when its condition is true.
package enum TruthValue: Hashable, Sendable {
    case `true`
    case `false`
    case unknown

    /// True or false, never unknown.
    @inline(__always)
    package init(_ value: Bool) { self = value ? .true : .false }

    /// NOT: unknown stays unknown.
    @inline(__always)
    package var negated: TruthValue {
        switch self {
        case .true: return .false
        case .false: return .true
        case .unknown: return .unknown
        }
    }

    /// AND: false wins, then unknown.
    @inline(__always)
    package func and(_ other: TruthValue) -> TruthValue {
        if self == .false || other == .false { return .false }
        return self == .unknown || other == .unknown ? .unknown : .true
    }

    /// OR: true wins, then unknown.
    @inline(__always)
    package func or(_ other: TruthValue) -> TruthValue {
        if self == .true || other == .true { return .true }
        return self == .unknown || other == .unknown ? .unknown : .false
    }
}

/// What evaluation needs from outside the record: the time `CURRENT_DATE` and `CURRENT_TIMESTAMP` mean.
package struct EvaluationContext: Hashable, Sendable {
    /// Milliseconds since 1970-01-01 UTC.
    package var currentTimeMilliseconds: Int64

    /// A context whose "now" is fixed: for tests, and to evaluate a batch at one instant.
    package init(currentTimeMilliseconds: Int64) {
        self.currentTimeMilliseconds = currentTimeMilliseconds
    }

    /// The system clock's time now.
    package static func now() -> EvaluationContext {
        EvaluationContext(currentTimeMilliseconds: WallClock.nowMilliseconds())
    }
}
