import FeatureService
import QueryLanguage

extension QueryCheck {
    /// Checks what a query asks beyond a where clause and a geometry (object ids, a time window, an order,
    /// statistics, distinct values) against `layer`, so that a query the layer cannot answer fails with its
    /// reason before anything is sent. Nothing to check (the usual query) costs four comparisons.
    static func checkFeatureTable(_ query: ServiceQuery, for layer: LayerMetadata) throws(FeatureServiceError) {
        if let ids = query.objectIds {
            for id in ids {
                guard case .integer = id else {
                    throw invalid("objectIds holds \(id); the object ids of an ArcGIS layer are integers", layer)
                }
            }
        }
        if query.time != nil, layer.timeInfo == nil {
            throw invalid(
                "\(layer.url) (\(layer.name)) is not time-aware (its metadata has no timeInfo), so a time window "
                    + "cannot be applied; ArcGIS would ignore it and return every feature", layer)
        }
        if query.result == .statistics {
            try checkStatistics(query, for: layer)
        } else {
            for term in query.orderBy { _ = try field(term.field, of: layer, usedFor: "orderBy") }
        }
        if query.result == .distinct, query.outFields.contains("*") {
            throw invalid("distinct values need outFields naming the fields to combine, not \"*\"", layer)
        }
    }

    private static func checkStatistics(_ query: ServiceQuery, for layer: LayerMetadata) throws(FeatureServiceError) {
        guard !query.statistics.isEmpty else {
            throw invalid("result statistics needs at least one entry in statistics", layer)
        }
        for statistic in query.statistics {
            let field = try field(statistic.field, of: layer, usedFor: "statistic \(statistic.name)")
            switch statistic.type {
            case .count, .min, .max:
                break
            case .sum, .avg, .stddev, .var, .percentileCont, .percentileDisc:
                guard field.type.isNumeric else {
                    throw invalid(
                        "statistic \(statistic.name) (\(statistic.type.rawValue)) needs a numeric field; "
                            + "\(field.name) of \(layer.url) is \(field.type.esriName)", layer)
                }
            }
        }
        for name in query.groupBy { _ = try field(name, of: layer, usedFor: "groupBy") }
        for term in query.orderBy {
            let known = query.groupBy.contains { $0.caseInsensitiveEquals(term.field) }
                || query.statistics.contains { $0.name.caseInsensitiveEquals(term.field) }
            guard known else {
                throw invalid(
                    "orderBy names \(term.field); statistics are ordered by their groupBy fields or statistic names", layer)
            }
        }
    }

    private static func field(_ name: String, of layer: LayerMetadata, usedFor use: String) throws(FeatureServiceError) -> LayerField {
        guard let field = layer.field(named: name) else {
            throw invalid("\(use) names \(name), which \(layer.url) (\(layer.name)) does not have", layer)
        }
        return field
    }

    private static func invalid(_ message: String, _ layer: LayerMetadata) -> FeatureServiceError {
        FeatureServiceError(.invalidQuery, message, layer: layer.url)
    }
}

extension FieldType {
    /// Whether values of the type are numbers (sums, averages and percentiles are taken of these only).
    var isNumeric: Bool {
        switch self {
        case .objectID, .integer, .smallInteger, .bigInteger, .double, .single: true
        case .string, .date, .globalID, .guid: false
        }
    }
}
