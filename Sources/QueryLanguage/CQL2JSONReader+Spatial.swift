import FeatureQuerySupport

/// CQL2-JSON spatial predicates: `{"op":"s_intersects","args":[{"property":"geometry"},{"bbox":[...]}]}`,
/// with GeoJSON geometry literals (`{"type":"Point","coordinates":[...]}`) or a `bbox`.
extension CQL2JSONReader {
    func spatialPredicate(
        _ relation: CQL2SpatialRelation, _ args: [ParsedJSON], _ path: String
    ) throws(QueryLanguageError) -> CQL2SpatialPredicate {
        switch (args[0]["property"], args[1]["property"]) {
        case (let property?, nil):
            return CQL2SpatialPredicate(
                relation: relation, property: try propertyName(property, "\(path).args[0]"),
                geometry: try geometry(args[1], "\(path).args[1]", depth: 0))
        case (nil, let property?):
            return CQL2SpatialPredicate(
                relation: relation.converse, property: try propertyName(property, "\(path).args[1]"),
                geometry: try geometry(args[0], "\(path).args[0]", depth: 0))
        default:
            break
        }
        throw error(.invalidArgument, "\(path).args", "must be a geometry property and a geometry literal, such as "
            + #"[{"property":"geometry"},{"bbox":[-118,33,-117,34]}]"#)
    }

    /// A `{"bbox":[...]}` or a GeoJSON geometry.
    private func geometry(_ json: ParsedJSON, _ path: String, depth: Int) throws(QueryLanguageError) -> CQL2GeometryLiteral {
        guard depth <= limits.maxDepth else {
            throw error(.nestingTooDeep, path, "nests geometry collections more than \(limits.maxDepth) levels deep")
        }
        if let box = json["bbox"], json["type"] == nil {
            let values = try numbers(box, "\(path).bbox")
            guard values.count == 4 || values.count == 6 else {
                throw error(.invalidArgument, "\(path).bbox", "has \(values.count) numbers; a bbox has 4 (west, south, "
                    + "east, north) or 6 with heights")
            }
            return .bbox(values)
        }
        guard case .string(let type)? = json["type"] else {
            throw error(.invalidArgument, path, "is not a geometry: write {\"bbox\":[w,s,e,n]} or a GeoJSON geometry")
        }
        if type == "GeometryCollection" {
            guard case .array(let members)? = json["geometries"] else {
                throw error(.invalidArgument, "\(path).geometries", "must be an array of geometries")
            }
            var geometries: [CQL2GeometryLiteral] = []
            for (index, member) in members.enumerated() {
                geometries.append(try geometry(member, "\(path).geometries[\(index)]", depth: depth + 1))
            }
            return .geometryCollection(geometries)
        }
        guard let coordinates = json["coordinates"] else {
            throw error(.invalidArgument, "\(path).coordinates", "is missing")
        }
        let at = "\(path).coordinates"
        switch type {
        case "Point": return .point(try position(coordinates, at))
        case "LineString": return .lineString(try positions(coordinates, at))
        case "Polygon": return .polygon(try rings(coordinates, at))
        case "MultiPoint": return .multiPoint(try positions(coordinates, at))
        case "MultiLineString": return .multiLineString(try rings(coordinates, at))
        case "MultiPolygon":
            return .multiPolygon(try items(coordinates, at) { (item, itemPath) throws(QueryLanguageError) in
                try rings(item, itemPath)
            })
        default:
            throw error(.invalidArgument, "\(path).type", "'\(SourceColumn.excerpt(type))' is not a GeoJSON geometry "
                + "type; use Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon or GeometryCollection")
        }
    }

    private func rings(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> [[CQL2Position]] {
        try items(json, path) { (item, itemPath) throws(QueryLanguageError) in try positions(item, itemPath) }
    }

    private func positions(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> [CQL2Position] {
        try items(json, path) { (item, itemPath) throws(QueryLanguageError) in try position(item, itemPath) }
    }

    private func items<Item>(
        _ json: ParsedJSON, _ path: String, _ item: (ParsedJSON, String) throws(QueryLanguageError) -> Item
    ) throws(QueryLanguageError) -> [Item] {
        guard case .array(let elements) = json, !elements.isEmpty else {
            throw error(.invalidArgument, path, "must be a non-empty array")
        }
        var result: [Item] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { result.append(try item(element, "\(path)[\(index)]")) }
        return result
    }

    private func position(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> CQL2Position {
        let values = try numbers(json, path)
        guard values.count == 2 || values.count == 3 else {
            throw error(.invalidArgument, path, "is a position of \(values.count) numbers; write [longitude, latitude]")
        }
        return values
    }

    private func numbers(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> [Double] {
        guard case .array(let elements) = json else { throw error(.invalidArgument, path, "must be an array of numbers") }
        var values: [Double] = []
        for element in elements {
            guard case .number(let value) = element, value.isFinite else {
                throw error(.invalidArgument, path, "must hold only numbers, not \(element.kindDescription)")
            }
            values.append(value)
        }
        return values
    }
}
