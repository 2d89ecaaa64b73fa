import FeatureService
package import FeatureGeometry
package import FeatureQuerySupport
package import QueryLanguage

extension RequestDecoder {
    package static let queryFields = [
        "where", "namedWhere", "extent", "geometry", "spatialRelationship", "outFields", "returnGeometry",
        "outSpatialReference", "maxFeatures", "result", "objectIds", "time", "orderBy", "statistics", "groupBy",
        "relationship", "relatedWhere", "relatedOutFields", "relatedOrderBy",
    ]

    package static let relations: [(name: String, relation: SpatialRelation)] = [
        ("intersects", .intersects), ("contains", .contains), ("within", .within),
        ("envelopeIntersects", .envelopeIntersects),
    ]

    package static let relationNames = relations.map(\.name)
    package static let resultKindNames = QuerySpec.ResultKind.allCases.map(\.rawValue)

    /// `query`: the attribute filter, the spatial filter and what to return, with the contract's defaults.
    package func readQuery(_ value: ParsedJSON) throws(ContractError) -> QuerySpec {
        let reader = try RequestFieldReader(value, path: "query")
        try reader.rejectUnknown(allowed: Self.queryFields)
        var spec = QuerySpec()
        spec.filter = try readFilter(reader)
        spec.extent = try reader.members["extent"].map { (value) throws(ContractError) in
            try Self.readExtent(value, path: reader.childPath("extent"))
        }
        spec.geometry = try reader.members["geometry"].map { (value) throws(ContractError) in
            try readGeometry(value, path: reader.childPath("geometry"))
        }
        if spec.extent != nil, spec.geometry != nil {
            throw ContractError.at(
                reader.childPath("geometry"), .invalidValue,
                "give extent or geometry, not both (both are the spatial filter; intersect them first)")
        }
        if let name = try reader.oneOf("spatialRelationship", Self.relationNames) {
            guard spec.extent != nil || spec.geometry != nil else {
                throw ContractError.at(
                    reader.childPath("spatialRelationship"), .invalidValue,
                    "relates the spatial filter to features, but the query has no extent or geometry")
            }
            spec.spatialRelationship = Self.relations.first { $0.name == name }?.relation ?? .intersects
        }
        if let fields = try reader.array("outFields") {
            spec.outFields = try Self.readOutFields(fields, path: reader.childPath("outFields"))
        }
        spec.returnGeometry = try reader.bool("returnGeometry") ?? false
        spec.outSpatialReference = try reader.members["outSpatialReference"].map { (value) throws(ContractError) in
            try Self.readSpatialReference(value, path: reader.childPath("outSpatialReference"))
        }
        spec.maxFeatures = try reader.integer("maxFeatures", in: 1...9_007_199_254_740_991).map { Int($0) }
        if let kind = try reader.oneOf("result", Self.resultKindNames) {
            spec.result = QuerySpec.ResultKind(rawValue: kind) ?? .ids
        }
        try Self.checkCatalogQuery(spec, reader)
        try readTableMembers(reader, into: &spec)
        if spec.result.hasGeoJSONGeometry, spec.outSpatialReference != nil {
            try Self.checkOutputSpatialReference(spec, path: reader.childPath("outSpatialReference"))
        }
        return spec
    }

    /// A catalog lists what each target offers; it selects no features, so a filter or an output option in a
    /// catalog request is a mistake (the producer meant another result kind) and is refused rather than
    /// silently ignored.
    package static func checkCatalogQuery(_ spec: QuerySpec, _ reader: RequestFieldReader) throws(ContractError) {
        guard spec.result == .catalog else { return }
        for name in queryFields where name != "result" && reader.members[name] != nil {
            throw ContractError.at(
                reader.childPath(name), .invalidValue,
                "a result: catalog request lists each target's collections or layers and selects no features, so it "
                    + "takes no \(name); drop it, or ask for ids, count, features, statistics, extent, distinct, related or "
                    + "attachments")
        }
    }

    /// Result features (and related records' geometries) are GeoJSON, always WGS 84: the worker projects Web
    /// Mercator itself and can project nothing else, so with `result: features` or `related` any other
    /// `outSpatialReference` is refused on arrival instead of failing every layer after its HTTP requests. For
    /// `ids` and `count` nothing is projected.
    package static func checkOutputSpatialReference(_ spec: QuerySpec, path: String) throws(ContractError) {
        guard spec.result.hasGeoJSONGeometry, let reference = spec.outSpatialReference else { return }
        guard reference.wkid != 4326, !reference.isWebMercator else { return }
        let what = spec.result == .related ? "related records' geometries" : "result features"
        throw ContractError.at(
            path, .unsupportedSpatialReference,
            "wkid \(reference.wkid) cannot be returned: \(what) are GeoJSON in WGS 84, so only 4326 or Web "
                + "Mercator (3857, 102100) can be asked for; omit outSpatialReference to get WGS 84",
            details: ["wkid": .number(Double(reference.wkid))])
    }

    private func readFilter(_ reader: RequestFieldReader) throws(ContractError) -> QuerySpec.AttributeFilter {
        let text = try reader.string("where")
        let name = try reader.string("namedWhere", length: 0...Int.max)
        if text != nil, name != nil {
            throw ContractError.at(reader.childPath("namedWhere"), .invalidValue, "give where or namedWhere, not both")
        }
        if let text {
            return .clause(try freeClause(text, path: reader.childPath("where")))
        }
        guard let name else { return .all }
        let path = reader.childPath("namedWhere")
        let isName = (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            RequestDecoder.isCredentialNameByte(byte) && byte != UInt8(ascii: ".")
        }
        do throws(QueryLanguageError) {
            guard isName else {
                throw QueryLanguageError(
                    code: .unknownNamedQuery,
                    message: "\"\(RequestFieldReader.excerpt(name))\" is not a query name (1 to 64 letters, digits, _ and -)")
            }
            return .named(name, try namedQueries.resolve(.named(name)))
        } catch {
            throw ContractError.at(path, .unknownNamedQuery, error.message, details: ["names": Self.names(namedQueries)])
        }
    }

    /// A free where clause (`where`, `relatedWhere`), parsed within the clause limits and the operator's
    /// policy: a worker that takes named queries only takes no free clause anywhere.
    package func freeClause(_ text: String, path: String) throws(ContractError) -> WhereClause {
        if let known = cache.clause(text) { return known }
        do throws(QueryLanguageError) {
            let clause = try namedQueries.resolve(.free(text))
            cache.store(clause: clause, for: text)
            return clause
        } catch {
            if error.code == .freeClausesDisabled {
                throw ContractError.at(path, .freeClausesDisabled, error.message, details: ["names": Self.names(namedQueries)])
            }
            var details: [String: ParsedJSON] = ["clauseError": .string(error.code.rawValue)]
            if let column = error.column { details["column"] = .number(Double(column)) }
            throw ContractError.at(path, .invalidWhere, error.message, details: details)
        }
    }

    private static func names(_ catalog: NamedQueryCatalog) -> ParsedJSON {
        .array(catalog.names.prefix(100).map { .string($0) })
    }

    /// `outFields` (and `relatedOutFields`, named `member` in the empty list's message): 1 to 1000 distinct
    /// field names.
    package static func readOutFields(_ items: [ParsedJSON], path: String, member: String = "outFields") throws(ContractError) -> [String] {
        guard (1...1000).contains(items.count) else {
            throw ContractError.at(
                path, .invalidValue,
                items.isEmpty ? "is empty; omit \(member) for all fields ([\"*\"])" : "lists \(items.count) fields; at most 1000")
        }
        var fields: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard case .string(let name) = item else {
                throw ContractError.at(itemPath, .invalidType, "expected a field name, found \(RequestFieldReader.describe(item))")
            }
            guard (1...128).contains(name.unicodeScalars.count) else {
                throw ContractError.at(itemPath, .invalidValue, "a field name has 1 to 128 characters")
            }
            if let earlier = fields.firstIndex(of: name) {
                throw ContractError.at(itemPath, .invalidValue, "repeats \(path)[\(earlier)]")
            }
            fields.append(name)
        }
        return fields
    }

    // MARK: Spatial

    /// `{"wkid": n}`, n from 1 to 2^31-1.
    package static func readSpatialReference(
        _ value: ParsedJSON, path: @autoclosure () -> String
    ) throws(ContractError) -> SpatialReference {
        // The usual `{"wkid": n}` with a valid n, read without a field reader (what it would accept, the same).
        if case .object(let members) = value, members.count == 1, case .number(let number)? = members["wkid"],
            number.rounded(.towardZero) == number, number >= 1, number <= 2_147_483_647
        {
            return SpatialReference(wkid: Int(number))
        }
        let reader = try RequestFieldReader(value, path: path())
        try reader.rejectUnknown(allowed: ["wkid"])
        let wkid = try reader.integer("wkid", required: true, in: 1...2_147_483_647) ?? 4326
        return SpatialReference(wkid: Int(wkid))
    }

    /// The extent: four finite edges in order; in WGS 84 (the default) within ±180 / ±90 degrees.
    package static func readExtent(_ value: ParsedJSON, path: String) throws(ContractError) -> Envelope {
        let reader = try RequestFieldReader(value, path: path)
        try reader.rejectUnknown(allowed: ["xmin", "ymin", "xmax", "ymax", "spatialReference"])
        // Four locals and static names, not arrays: every request with an extent comes through here.
        let edges = (
            try reader.number("xmin", required: true) ?? 0, try reader.number("ymin", required: true) ?? 0,
            try reader.number("xmax", required: true) ?? 0, try reader.number("ymax", required: true) ?? 0)
        let spatialReference = try reader.members["spatialReference"].map { (value) throws(ContractError) in
            try readSpatialReference(value, path: reader.childPath("spatialReference"))
        } ?? .wgs84
        if spatialReference.wkid == 4326,
            abs(edges.0) > 180 || abs(edges.1) > 90 || abs(edges.2) > 180 || abs(edges.3) > 90
        {
            let all = [edges.0, edges.1, edges.2, edges.3]
            for (index, name) in ["xmin", "ymin", "xmax", "ymax"].enumerated() {
                let bound: Double = index % 2 == 0 ? 180 : 90
                guard abs(all[index]) <= bound else {
                    throw ContractError.at(
                        reader.childPath(name), .invalidValue,
                        "\(RequestFieldReader.format(all[index])) is outside -\(Int(bound))…\(Int(bound)) degrees "
                            + "(WGS 84, wkid 4326, the default); give the extent's spatialReference if it is in another")
                }
            }
        }
        if edges.0 > edges.2 || edges.1 > edges.3 {
            let (low, high, lowName, highName) = edges.0 > edges.2 ? (edges.0, edges.2, "xmin", "xmax") : (edges.1, edges.3, "ymin", "ymax")
            throw ContractError.at(
                reader.childPath(lowName), .invalidValue,
                "\(lowName) (\(RequestFieldReader.format(low))) is greater than \(highName) "
                    + "(\(RequestFieldReader.format(high))); an extent crossing the antimeridian must be sent as two requests")
        }
        return Envelope(xmin: edges.0, ymin: edges.1, xmax: edges.2, ymax: edges.3, spatialReference: spatialReference)
    }

    /// A GeoJSON geometry (it has `type`; WGS 84) or an Esri JSON one (no `type`; its spatialReference, else
    /// WGS 84), decoded by FeatureGeometry within the vertex limit. Empty geometries are refused.
    package func readGeometry(_ value: ParsedJSON, path: String) throws(ContractError) -> Geometry {
        guard case .object(let members) = value else {
            throw ContractError.at(path, .invalidType, "expected a geometry object, found \(RequestFieldReader.describe(value))")
        }
        let decodingLimits = DecodingLimits(
            maxBytes: limits.maxMessageBytes, maxDepth: limits.maxDepth, maxPositions: limits.maxGeometryPositions)
        let isGeoJSON = members["type"] != nil
        if !isGeoJSON, let value = members["spatialReference"] {
            // Esri's decoder is lenient here (null, negative WKIDs); the contract is not.
            let reader = try RequestFieldReader(value, path: "\(path).spatialReference")
            let wkid = try reader.integer("wkid", in: 1...2_147_483_647)
            let latest = try reader.integer("latestWkid", in: 1...2_147_483_647)
            guard wkid != nil || latest != nil else {
                throw ContractError.at(
                    reader.path, .invalidGeometry, "a spatialReference needs a wkid (WKT-only spatial references are not supported)")
            }
        }
        let geometry: Geometry
        do {
            geometry = isGeoJSON
                ? try GeoJSON.decode(value, spatialReference: .wgs84, limits: decodingLimits)
                : try EsriJSON.decode(value, defaultSpatialReference: .wgs84, limits: decodingLimits)
        } catch let error as GeometryError {
            let inner = error.path.map { String($0.dropFirst()) } ?? ""
            let format = isGeoJSON ? "GeoJSON" : "Esri JSON"
            throw ContractError.at(
                path + inner, .invalidGeometry, "not a usable \(format) geometry: \(error.message)",
                details: ["geometryError": .string(error.code.rawValue)])
        } catch {
            throw ContractError.at(path, .invalidGeometry, "not a usable geometry: \(error)")
        }
        guard !geometry.isEmpty else {
            throw ContractError.at(path, .invalidGeometry, "the geometry has no vertices; omit geometry to filter by none")
        }
        try Self.checkPositionExtras(value, path: path)
        return geometry
    }
}
