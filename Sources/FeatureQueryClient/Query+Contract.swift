import FeatureQuerySupport

extension Query {
    /// The contract's `query` object: only the members set, so the worker's defaults apply to the rest.
    func contractJSON() throws(FeatureQueryError) -> ParsedJSON {
        var object: [String: ParsedJSON] = [:]
        func set(_ name: String, _ value: ParsedJSON?) { if let value { object[name] = value } }
        func strings(_ values: [String]?) -> ParsedJSON? { values.map { .array($0.map(ParsedJSON.string)) } }
        set("where", self.where.map(ParsedJSON.string))
        set("namedWhere", namedWhere.map(ParsedJSON.string))
        set("extent", extent.map(\.contractJSON))
        if let geometry {
            do {
                object["geometry"] = try ParsedJSON(reading: Array(geometry.utf8))
            } catch {
                throw FeatureQueryError(
                    .init(rawValue: "invalid_geometry"), "query.geometry is not JSON text (\(error)): pass GeoJSON or Esri JSON")
            }
        }
        set("spatialRelationship", spatialRelationship.map { .string($0.rawValue) })
        set("outFields", strings(outFields))
        set("returnGeometry", returnGeometry.map(ParsedJSON.bool))
        set("outSpatialReference", outSpatialReference.map { .object(["wkid": .number(Double($0))]) })
        set("maxFeatures", maxFeatures.map { .number(Double($0)) })
        set("result", result.map { .string($0.rawValue) })
        set("objectIds", objectIds.map { .array($0.map(\.contractJSON)) })
        set("time", time.map(\.contractJSON))
        set("orderBy", orderBy.map { .array($0.map(\.contractJSON)) })
        set("statistics", statistics.map { .array($0.map(\.contractJSON)) })
        set("groupBy", strings(groupBy))
        set("relationship", relationship.map(\.contractJSON))
        set("relatedWhere", relatedWhere.map(ParsedJSON.string))
        set("relatedOutFields", strings(relatedOutFields))
        set("relatedOrderBy", relatedOrderBy.map { .array($0.map(\.contractJSON)) })
        return .object(object)
    }
}

extension Query.Extent {
    var contractJSON: ParsedJSON {
        .object([
            "xmin": .number(xmin), "ymin": .number(ymin), "xmax": .number(xmax), "ymax": .number(ymax),
            "spatialReference": .object(["wkid": .number(Double(wkid))]),
        ])
    }
}

extension Query.FeatureID {
    var contractJSON: ParsedJSON {
        switch self {
        case .integer(let value): .number(Double(value))
        case .string(let value): .string(value)
        }
    }
}

extension Query.TimeWindow {
    var contractJSON: ParsedJSON {
        var object: [String: ParsedJSON] = [:]
        if let start { object["start"] = .string(start) }
        if let end { object["end"] = .string(end) }
        return .object(object)
    }
}

extension Query.Order {
    /// Ascending is the contract's default, so only `desc` is written.
    var contractJSON: ParsedJSON {
        descending ? .object(["field": .string(field), "direction": .string("desc")]) : .object(["field": .string(field)])
    }
}

extension Query.Statistic {
    var contractJSON: ParsedJSON {
        var object: [String: ParsedJSON] = ["type": .string(type), "field": .string(field)]
        if let name { object["name"] = .string(name) }
        if let percentile { object["percentile"] = .number(percentile) }
        return .object(object)
    }
}

extension Query.Relationship {
    var contractJSON: ParsedJSON {
        switch self {
        case .name(let name): .object(["name": .string(name)])
        case .id(let id): .object(["id": .number(Double(id))])
        }
    }
}
