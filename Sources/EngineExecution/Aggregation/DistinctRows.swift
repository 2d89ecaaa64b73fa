package import FeatureService
package import QueryLanguage

/// `result: distinct` computed by the worker: the distinct combinations of some fields over the complete
/// selection, as `SELECT DISTINCT f1, f2 …` answers them.
///
/// Null is a value (`SELECT DISTINCT` keeps one null row, unlike `COUNT(DISTINCT f)`). Two values are the same
/// when SQL compares them equal (``AttributeKey``): integer `1` and double `1.0` are one value (the first one
/// seen is the one answered), strings by their bytes. Memory grows with the number of distinct combinations
/// (``count``), which the caller bounds by its result budget.
package struct DistinctRows: Sendable {
    package let fields: [String]
    package let layer: String
    private var seen: Set<[AttributeKey]> = []
    private var combinations: [[AttributeValue]] = []

    /// `fields` must be one or more distinct, non-empty names.
    package init(fields: [String], layer: String) throws(FeatureServiceError) {
        guard !fields.isEmpty else {
            throw FeatureServiceError(.invalidQuery, "\(layer): a distinct query needs at least one field in outFields", layer: layer)
        }
        for (index, field) in fields.enumerated() {
            guard !field.isEmpty, field != "*" else {
                throw FeatureServiceError(
                    .invalidQuery, "\(layer): a distinct query names its fields; '\(field)' is not a field name", layer: layer)
            }
            guard !fields[..<index].contains(field) else {
                throw FeatureServiceError(.invalidQuery, "\(layer): outFields names '\(field)' twice; name each field once", layer: layer)
            }
        }
        self.fields = fields
        self.layer = layer
    }

    /// Distinct combinations so far.
    package var count: Int { combinations.count }

    /// Adds one record, its values in ``fields`` order (missing trailing values read as null).
    package mutating func add(_ record: [AttributeValue]) {
        let values = fields.indices.map { $0 < record.count ? record[$0] : AttributeValue.null }
        if seen.insert(values.map(AttributeKey.init)).inserted {
            combinations.append(values)
        }
    }

    /// The combinations in `orderBy` order (terms must name the fields), ties and the default order by every
    /// field ascending in ``fields`` order, nulls last.
    package func rows(orderBy: [OrderTerm]) throws(FeatureServiceError) -> [[NamedValue]] {
        var columns: [Int] = []
        for term in orderBy {
            guard let column = fields.firstIndex(of: term.field) else {
                throw FeatureServiceError(
                    .invalidQuery,
                    "\(layer): orderBy names '\(term.field)', which is not one of the distinct fields (\(fields.joined(separator: ", ")))",
                    layer: layer)
            }
            columns.append(column)
        }
        let order = AttributeOrder(orderBy)
        let fieldOrder = AttributeOrder(fields.map { OrderTerm(field: $0) })
        let sorted = combinations.sorted { a, b in
            let result = order.compare(columns.map { a[$0] }, columns.map { b[$0] })
            if result != 0 { return result < 0 }
            return fieldOrder.compare(a, b) < 0
        }
        return sorted.map { values in zip(fields, values).map { NamedValue($0, $1) } }
    }
}
