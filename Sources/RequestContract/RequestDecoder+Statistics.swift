package import FeatureQuerySupport
package import FeatureService

/// `statistics` and `groupBy` (contract 1.2): what `result: statistics` computes and the fields it groups by.
/// Both belong to that result alone; names follow ArcGIS's `outStatisticFieldName` rule so that every engine
/// can pass them to the service unchanged.
extension RequestDecoder {
    package static let statisticTypeNames = StatisticType.allCases.map(\.rawValue)

    /// Reads `statistics` and `groupBy` into `spec`: required and allowed with `result: statistics` only.
    package static func readAggregation(_ reader: RequestFieldReader, into spec: inout QuerySpec) throws(ContractError) {
        let isStatistics = spec.result == .statistics
        for name in ["statistics", "groupBy"] where !isStatistics && reader.has(name) {
            throw ContractError.at(
                reader.childPath(name), .invalidValue,
                "belongs to result: statistics, and this query's result is \(spec.result.rawValue); drop \(name) or "
                    + "ask for statistics")
        }
        guard isStatistics else { return }
        if let items = try reader.array("groupBy") {
            spec.groupBy = try readGroupBy(items, path: reader.childPath("groupBy"))
        }
        guard let items = try reader.array("statistics", required: true) else { return }
        spec.statistics = try readStatistics(items, path: reader.childPath("statistics"), groupBy: spec.groupBy)
    }

    /// `groupBy`: 0 to 8 distinct field names.
    package static func readGroupBy(_ items: [ParsedJSON], path: String) throws(ContractError) -> [String] {
        guard items.count <= maxGroupFields else {
            throw ContractError.at(path, .invalidValue, "lists \(items.count) fields; at most \(maxGroupFields)")
        }
        var fields: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard case .string(let field) = item else {
                throw ContractError.at(itemPath, .invalidType, "expected a field name, found \(RequestFieldReader.describe(item))")
            }
            guard (1...128).contains(field.unicodeScalars.count) else {
                throw ContractError.at(itemPath, .invalidValue, "a field name has 1 to 128 characters")
            }
            if let earlier = fields.firstIndex(of: field) {
                throw ContractError.at(itemPath, .invalidValue, "repeats \(path)[\(earlier)]")
            }
            fields.append(field)
        }
        return fields
    }

    /// `statistics`: 1 to 32 `{"type", "field", "name"?, "percentile"?}` with distinct names, none of them a
    /// `groupBy` field (an `orderBy` entry names either, so they must not be confused).
    package static func readStatistics(
        _ items: [ParsedJSON], path: String, groupBy: [String]
    ) throws(ContractError) -> [StatisticDefinition] {
        guard (1...maxStatistics).contains(items.count) else {
            throw ContractError.at(
                path, .invalidValue,
                items.isEmpty ? "is empty; name at least one statistic" : "has \(items.count) entries; at most \(maxStatistics)")
        }
        var definitions: [StatisticDefinition] = []
        for (index, item) in items.enumerated() {
            let definition = try readStatistic(item, path: "\(path)[\(index)]")
            if let earlier = definitions.firstIndex(where: { $0.name == definition.name }) {
                throw ContractError.at(
                    "\(path)[\(index)].name", .invalidValue,
                    "the name \(definition.name) is taken by \(path)[\(earlier)]; give each statistic its own name")
            }
            if groupBy.contains(definition.name) {
                throw ContractError.at(
                    "\(path)[\(index)].name", .invalidValue,
                    "\(definition.name) is a groupBy field; a statistic needs another name, so orderBy can tell them apart")
            }
            definitions.append(definition)
        }
        return definitions
    }

    private static func readStatistic(_ value: ParsedJSON, path: String) throws(ContractError) -> StatisticDefinition {
        let reader = try RequestFieldReader(value, path: path)
        try reader.rejectUnknown(allowed: ["type", "field", "name", "percentile"])
        _ = try reader.required("type")
        let type = StatisticType(rawValue: try reader.oneOf("type", statisticTypeNames) ?? "") ?? .count
        let field = try reader.string("field", required: true, length: 1...128) ?? ""
        let name = try reader.string("name", length: 1...128)
        if let name, !StatisticDefinition.isValidName(name) {
            throw ContractError.at(
                reader.childPath("name"), .invalidValue,
                "\"\(RequestFieldReader.excerpt(name))\" is not a statistic name (letters, digits and _, as ArcGIS's "
                    + "outStatisticFieldName)")
        }
        let percentile = try reader.number("percentile")
        if type.isPercentile {
            guard let percentile else {
                throw ContractError.at(
                    reader.childPath("percentile"), .missingField, "\(type.rawValue) needs a percentile, 0 < p < 1")
            }
            guard percentile > 0, percentile < 1 else {
                throw ContractError.at(
                    reader.childPath("percentile"), .invalidValue,
                    "\(RequestFieldReader.format(percentile)) is not between 0 and 1 (exclusive); the median is 0.5")
            }
        } else if percentile != nil {
            throw ContractError.at(
                reader.childPath("percentile"), .invalidValue,
                "only percentileCont and percentileDisc take a percentile, not \(type.rawValue)")
        }
        return StatisticDefinition(
            type: type, field: field, name: name ?? StatisticDefinition.defaultName(type: type, field: field), percentile: percentile)
    }
}
