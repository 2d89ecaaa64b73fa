import QueryLanguage

/// The `pygeoapi-datetime` quirk: pygeoapi validates `datetime` against the collection's temporal extent.
extension OGCDatetime {
    static func checkRange(_ text: String, collection: OGCCollection) throws(OGCError) {
        guard let temporal = collection.temporal else {
            throw .invalidParameter("datetime parameter not supported: '\(collection.id)' has no temporal extent")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        func milliseconds(_ value: String) -> Int64? {
            value.isEmpty || value == ".." ? nil : CalendarTimestamp(parsing: value)?.millisecondsSinceEpoch
        }
        let start = milliseconds(parts[0])
        let end = parts.count == 2 ? milliseconds(parts[1]) : start
        if let start, start > temporal.end { throw .invalidParameter("datetime parameter out of range") }
        if let end, end < temporal.start { throw .invalidParameter("datetime parameter out of range") }
    }
}

/// The `datetime` parameter: an instant or an interval (`start/end`, either end `..` or empty for open).
enum OGCDatetime {
    static func terms(_ text: String, field: String) throws(OGCError) -> [FilterExpression] {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidParameter("'datetime' must be an instant or an interval start/end; found '\(text.prefix(80))'")
        }
        func instant(_ value: String) throws(OGCError) -> CalendarTimestamp? {
            if value.isEmpty || value == ".." { return nil }
            guard let timestamp = CalendarTimestamp(parsing: value) else {
                throw .invalidParameter("'datetime' holds '\(value.prefix(40))', not an RFC 3339 date-time, date or '..'")
            }
            return timestamp
        }
        let property = FilterExpression(.field(field))
        func compare(_ op: ComparisonOperator, _ timestamp: CalendarTimestamp) -> FilterExpression {
            FilterExpression(.comparison(op, property, FilterExpression(.literal(.timestamp(timestamp)))))
        }
        if parts.count == 1 {
            guard let moment = try instant(parts[0]) else { throw .invalidParameter("'datetime' '..' is not an instant") }
            return [compare(.equal, moment)]
        }
        var terms: [FilterExpression] = []
        if let start = try instant(parts[0]) { terms.append(compare(.greaterOrEqual, start)) }
        if let end = try instant(parts[1]) { terms.append(compare(.lessOrEqual, end)) }
        if terms.isEmpty { terms.append(FilterExpression(.isNull(property, negated: true))) }
        return terms
    }
}
