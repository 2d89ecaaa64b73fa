/// What the subset's functions compute. A NULL argument, or one of the wrong kind, gives NULL.
///
/// Strings are measured and cut in Unicode scalars (code points), as databases count characters.
enum FunctionEvaluation {
    static func upper(_ value: AttributeValue) -> AttributeValue {
        if case .string(let text) = value { return .string(text.uppercased()) }
        return .null
    }

    static func lower(_ value: AttributeValue) -> AttributeValue {
        if case .string(let text) = value { return .string(text.lowercased()) }
        return .null
    }

    static func charLength(_ value: AttributeValue) -> AttributeValue {
        if case .string(let text) = value { return .integer(Int64(text.unicodeScalars.count)) }
        return .null
    }

    static func abs(_ value: AttributeValue) -> AttributeValue {
        switch value {
        case .integer(let x): return x == .min ? .double(-Double(x)) : .integer(x < 0 ? -x : x)
        case .double(let x): return .double(Swift.abs(x))
        default: return .null
        }
    }

    /// Half away from zero; negative digits round to tens, hundreds, ...
    static func round(_ value: AttributeValue, digits: Int) -> AttributeValue {
        switch value {
        case .integer(let x):
            guard digits < 0 else { return value }
            guard -digits <= 18 else { return .integer(0) }
            var unit: Int64 = 1
            for _ in 0..<(-digits) { unit *= 10 }
            var quotient = x / unit
            let remainder = x % unit
            if Swift.abs(remainder) >= unit - Swift.abs(remainder) { quotient += x < 0 ? -1 : 1 }
            let (result, overflow) = quotient.multipliedReportingOverflow(by: unit)
            return overflow ? .double(Double(quotient) * Double(unit)) : .integer(result)
        case .double(let x):
            var scale = 1.0
            for _ in 0..<Swift.abs(digits) { scale *= 10 }
            let scaled = digits >= 0 ? x * scale : x / scale
            guard scaled.isFinite else { return value }
            let rounded = scaled.rounded(.toNearestOrAwayFromZero)
            return .double(digits >= 0 ? rounded / scale : rounded * scale)
        default:
            return .null
        }
    }

    /// SQL's `SUBSTRING(x FROM start FOR length)`: 1-based, positions before 1 count but yield nothing.
    static func substring(_ value: AttributeValue, start: AttributeValue, length: AttributeValue?) -> AttributeValue {
        guard case .string(let text) = value, let from = ValueOperations.wholeNumber(start) else { return .null }
        var end = Int64.max
        if let length {
            guard let count = ValueOperations.wholeNumber(length), count >= 0 else { return .null }
            let (sum, overflow) = from.addingReportingOverflow(count)
            end = overflow ? .max : sum
        }
        let scalars = text.unicodeScalars
        let total = Int64(scalars.count)
        let lower = max(from, 1)
        let upper = min(end, total + 1)
        guard lower < upper else { return .string("") }
        let startIndex = scalars.index(scalars.startIndex, offsetBy: Int(lower - 1))
        let endIndex = scalars.index(startIndex, offsetBy: Int(upper - lower))
        return .string(String(scalars[startIndex..<endIndex]))
    }

    static func trim(_ value: AttributeValue, edge: TrimEdge, character: Unicode.Scalar) -> AttributeValue {
        guard case .string(let text) = value else { return .null }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        if edge != .trailing {
            while start < end, scalars[start] == character { start = scalars.index(after: start) }
        }
        if edge != .leading {
            while start < end {
                let before = scalars.index(before: end)
                guard scalars[before] == character else { break }
                end = before
            }
        }
        return .string(String(scalars[start..<end]))
    }

    static func cast(_ value: AttributeValue, to target: CastTarget) -> AttributeValue {
        switch target {
        case .integer, .smallInteger:
            let whole: Int64?
            switch value {
            case .integer(let x): whole = x
            case .double(let x): whole = ValueOperations.roundedInteger(x)
            case .string(let text):
                let trimmed = trimmedSpaces(text)
                whole = Int64(trimmed) ?? Double(trimmed).flatMap(ValueOperations.roundedInteger)
            default: whole = nil
            }
            guard let whole else { return .null }
            if target == .smallInteger, !(-32_768...32_767).contains(whole) { return .null }
            return .integer(whole)
        case .float, .real:
            let number: Double?
            switch value {
            case .integer(let x): number = Double(x)
            case .double(let x): number = x
            case .string(let text): number = Double(trimmedSpaces(text)).flatMap { $0.isFinite ? $0 : nil }
            default: number = nil
            }
            guard let number else { return .null }
            return .double(target == .real ? Double(Float(number)) : number)
        case .varchar(let length), .char(let length):
            let text: String
            switch value {
            case .integer(let x): text = String(x)
            case .double(let x): text = Literal.canonical(x)
            case .string(let x): text = x
            case .date(let ms): text = CalendarTimestamp(millisecondsSinceEpoch: ms)?.description ?? String(ms)
            case .null: return .null
            }
            guard let length, text.unicodeScalars.count > length else { return .string(text) }
            return .string(String(String.UnicodeScalarView(text.unicodeScalars.prefix(length))))
        case .date, .timestamp:
            let instant: Int64?
            switch value {
            case .date(let ms): instant = ms
            case .string(let text): instant = CalendarTimestamp(parsing: trimmedSpaces(text))?.millisecondsSinceEpoch
            default: instant = nil
            }
            guard let instant else { return .null }
            return .date(target == .date ? startOfDay(instant) : instant)
        }
    }

    static func startOfDay(_ milliseconds: Int64) -> Int64 {
        let remainder = milliseconds % 86_400_000
        return milliseconds - (remainder < 0 ? remainder + 86_400_000 : remainder)
    }

    private static func trimmedSpaces(_ text: String) -> Substring {
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " })
        else { return "" }
        return text[first...last]
    }
}
