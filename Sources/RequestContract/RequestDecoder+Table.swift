package import FeatureQuerySupport
package import FeatureService

/// The feature-table members of `query` (contract 1.2): `objectIds`, `time`, `orderBy`, `statistics` and
/// `groupBy`. Read after `result`, because what they may hold depends on it: a producer that sends statistics
/// with `result: ids` meant another result, and is told so instead of being silently ignored.
extension RequestDecoder {
    /// The most ids `objectIds` may list: ArcGIS servers take ids by the thousand, and 100 000 of them is still
    /// well inside the worker's message limit.
    package static let maxObjectIds = 100_000
    /// The most `orderBy` entries, `statistics` entries and `groupBy` fields.
    package static let maxOrderTerms = 8
    package static let maxStatistics = 32
    package static let maxGroupFields = 8

    /// Reads the 1.2 members into `spec`, whose `result` is already known.
    package func readTableMembers(_ reader: RequestFieldReader, into spec: inout QuerySpec) throws(ContractError) {
        if let items = try reader.array("objectIds") {
            spec.objectIds = try Self.readObjectIds(items, path: reader.childPath("objectIds"))
        }
        if let value = reader.members["time"] {
            spec.time = try Self.readTime(value, path: reader.childPath("time"))
        }
        if let items = try reader.array("orderBy") {
            spec.orderBy = try Self.readOrderBy(items, path: reader.childPath("orderBy"))
        }
        try Self.readAggregation(reader, into: &spec)
        try readRelated(reader, into: &spec)
        try Self.checkOrderBy(spec, reader)
        try Self.checkDistinct(spec, reader)
    }

    /// `objectIds`: 1 to 100 000 distinct ids, integers (ArcGIS object ids, OGC integer ids) or strings (OGC).
    /// `1` and `"1"` are different ids, as OGC servers keep them.
    package static func readObjectIds(_ items: [ParsedJSON], path: String) throws(ContractError) -> [FeatureID] {
        guard (1...maxObjectIds).contains(items.count) else {
            throw ContractError.at(
                path, .invalidValue,
                items.isEmpty ? "is empty; omit objectIds to select by the other filters alone"
                    : "lists \(items.count) ids; at most \(maxObjectIds) (send several requests)")
        }
        var ids: [FeatureID] = []
        ids.reserveCapacity(items.count)
        var seen = Set<FeatureID>(minimumCapacity: items.count)
        for (index, item) in items.enumerated() {
            let id: FeatureID
            switch item {
            case .string(let text):
                guard (1...256).contains(text.unicodeScalars.count) else {
                    throw ContractError.at("\(path)[\(index)]", .invalidValue, "a feature id has 1 to 256 characters")
                }
                id = .string(text)
            default:
                id = .integer(try RequestFieldReader.integer(
                    item, path: "\(path)[\(index)]", in: -9_007_199_254_740_991...9_007_199_254_740_991))
            }
            guard seen.insert(id).inserted else {
                throw ContractError.at("\(path)[\(index)]", .invalidValue, "repeats the id \(id); name each id once")
            }
            ids.append(id)
        }
        return ids
    }

    /// `time`: `{"start": T|null, "end": T|null}`, RFC 3339 with a zone, `null` (or absent) an open end; equal
    /// bounds are an instant. At least one bound, and the start not after the end.
    package static func readTime(_ value: ParsedJSON, path: String) throws(ContractError) -> TimeWindow {
        let reader = try RequestFieldReader(value, path: path)
        try reader.rejectUnknown(allowed: ["start", "end"])
        let start = try readInstant(reader, "start")
        let end = try readInstant(reader, "end")
        guard start != nil || end != nil else {
            throw ContractError.at(
                path, .invalidValue, "has no start and no end; give at least one bound, or omit time for any time")
        }
        if let start, let end, start > end {
            throw ContractError.at(
                reader.childPath("start"), .invalidValue,
                "\(RFC3339.string(fromMilliseconds: start)) is after the end \(RFC3339.string(fromMilliseconds: end)); "
                    + "give the earlier instant as start (equal bounds are an instant)")
        }
        return TimeWindow(start: start, end: end)
    }

    /// One bound of `time`: `nil` when absent or `null` (an open end).
    private static func readInstant(_ reader: RequestFieldReader, _ name: String) throws(ContractError) -> Int64? {
        guard let value = reader.members[name] else { return nil }
        switch value {
        case .null:
            return nil
        case .string(let text):
            guard let instant = RFC3339.milliseconds(from: text) else {
                throw ContractError.at(
                    reader.childPath(name), .invalidValue, "\"\(RequestFieldReader.excerpt(text))\" is not an RFC 3339 "
                        + "date-time with a time zone, such as 2025-06-01T12:00:00Z (null for an open end)")
            }
            return instant
        default:
            throw ContractError.at(
                reader.childPath(name), .invalidType,
                "expected an RFC 3339 date-time or null, found \(RequestFieldReader.describe(value))")
        }
    }

    /// `orderBy` (and `relatedOrderBy`): 1 to 8 `{"field": F, "direction": "asc"|"desc"}`, each field once;
    /// direction default `asc`. `omitted` says what leaving the member out means, for the empty list's message.
    package static func readOrderBy(
        _ items: [ParsedJSON], path: String, omitted: String = "omit orderBy for the service's order"
    ) throws(ContractError) -> [OrderTerm] {
        guard (1...maxOrderTerms).contains(items.count) else {
            throw ContractError.at(
                path, .invalidValue,
                items.isEmpty ? "is empty; \(omitted)"
                    : "has \(items.count) entries; at most \(maxOrderTerms)")
        }
        var terms: [OrderTerm] = []
        for (index, item) in items.enumerated() {
            let reader = try RequestFieldReader(item, path: "\(path)[\(index)]")
            try reader.rejectUnknown(allowed: ["field", "direction"])
            let field = try reader.string("field", required: true, length: 1...128) ?? ""
            let direction = try reader.oneOf("direction", ["asc", "desc"]) ?? "asc"
            if let earlier = terms.firstIndex(where: { $0.field == field }) {
                throw ContractError.at(
                    reader.childPath("field"), .invalidValue, "orders by \(field) again (\(path)[\(earlier)] already does)")
            }
            terms.append(OrderTerm(field: field, descending: direction == "desc"))
        }
        return terms
    }

    /// Orders exist for ids, features and statistics rows; statistics rows are ordered by what they hold (a
    /// group field or a statistic's name), not by a field of the features.
    package static func checkOrderBy(_ spec: QuerySpec, _ reader: RequestFieldReader) throws(ContractError) {
        guard !spec.orderBy.isEmpty else { return }
        guard spec.result.isOrderable else {
            let related = spec.result == .related ? " (relatedOrderBy orders each feature's related records)" : ""
            throw ContractError.at(
                reader.childPath("orderBy"), .invalidValue,
                "a result: \(spec.result.rawValue) has no order; orderBy orders ids, features and statistics rows\(related)")
        }
        guard spec.result == .statistics else { return }
        let names = spec.groupBy + spec.statistics.map(\.name)
        for (index, term) in spec.orderBy.enumerated() where !names.contains(term.field) {
            throw ContractError.at(
                "\(reader.childPath("orderBy"))[\(index)].field", .invalidValue,
                "statistics rows are ordered by a groupBy field or a statistic's name (\(names.joined(separator: ", "))), "
                    + "not by \(RequestFieldReader.excerpt(term.field))")
        }
    }

    /// A distinct list is of named fields: `*` would make every feature its own combination.
    package static func checkDistinct(_ spec: QuerySpec, _ reader: RequestFieldReader) throws(ContractError) {
        guard spec.result == .distinct else { return }
        guard reader.has("outFields") else {
            throw ContractError.at(
                reader.childPath("outFields"), .missingField,
                "result: distinct lists the distinct combinations of outFields; name the fields")
        }
        if let index = spec.outFields.firstIndex(of: "*") {
            throw ContractError.at(
                "\(reader.childPath("outFields"))[\(index)]", .invalidValue,
                "result: distinct needs named fields, not *: every feature would be its own combination")
        }
    }
}
