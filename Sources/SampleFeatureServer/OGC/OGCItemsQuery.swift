import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// An items request's parameters, read and checked against the collection: the page (limit, offset or
/// cursor), the output CRS, and the selection (bbox, datetime, property values and the CQL2 filter, ANDed).
/// Every problem is an ``OGCError`` (400) naming the parameter.
struct OGCItemsQuery: Sendable {
    /// Features per page, after clamping to the mount's maximum.
    var limit: Int
    var offset: Int
    /// The `empty` hop of the `empty-page` quirk: answer an empty page whose `next` resumes at `offset`.
    var emptyHop: Bool
    var crs: OGCCRS
    /// Areas every feature must intersect: the bbox (two rectangles when it crosses the antimeridian) and
    /// the filter's S_INTERSECTS literals, in WGS 84.
    var regions: [OGCRegion] = []
    /// The attribute part of the selection (property values, datetime, filter), if any.
    var predicate: WherePredicate?
    /// Identifies the selection for the selection cache.
    var selectionKey: String
    /// The parameters a `next` link repeats (everything but the page position).
    var carried: [SampleRequest.Parameter]
    /// `sortby` (Part 8), when the mount honours it.
    var order: SortOrder?
    /// `properties`: the fields to write, in the order asked; nil for all.
    var properties: [Int]?
    var skipGeometry = false
    /// `ids`: only these feature ids (OBJECTIDs).
    var ids: [Int]?

    static let pageParameters: Set<String> = ["limit", "offset", "cursor", "empty"]
    static let standardParameters: Set<String> = [
        "limit", "offset", "cursor", "empty", "bbox", "bbox-crs", "crs", "datetime", "filter", "filter-lang", "filter-crs",
        "f", "token", "apikey", "api_key", "sortby", "properties", "skipgeometry", "ids",
    ]

    init(_ list: [SampleRequest.Parameter], collection: OGCCollection, quirks: OGCQuirks) throws(OGCError) {
        let parameters = RequestParameters(list)
        limit = try Self.limit(parameters["limit"], quirks: quirks)
        offset = 0
        emptyHop = false
        if let text = parameters["offset"] {
            guard let value = Int(text.trimmingSpaces()), value >= 0 else {
                throw .invalidParameter("'offset' must be a whole number of at least 0; found '\(text.prefix(40))'")
            }
            offset = value
        }
        if let text = parameters["cursor"] {
            guard let value = OGCCursor.offset(text) else { throw .invalidParameter("'cursor' is not a cursor this server issued") }
            offset = value
        }
        emptyHop = quirks.has(.emptyPage) && parameters["empty"] == "1"
        if let text = parameters["f"], !["json", "geojson", "application/geo+json", "application/json"].contains(text.lowercased()) {
            throw .invalidParameter("'f' must be json or geojson; found '\(text.prefix(40))'")
        }
        crs = try Self.crs(parameters["crs"], name: "crs") ?? .crs84
        let bboxCRS = try Self.crs(parameters["bbox-crs"], name: "bbox-crs") ?? .crs84
        if let text = parameters["bbox"] {
            regions.append(OGCRegion(shapes: try Self.boxes(text, crs: bboxCRS).map { .envelope($0) }))
        }

        var terms: [FilterExpression] = []
        for parameter in list where !Self.standardParameters.contains(parameter.name.lowercased()) {
            guard let field = collection.fieldIndex(parameter.name) else {
                throw .invalidParameter("unknown parameter '\(parameter.name.prefix(60))': not a standard parameter or a queryable of '\(collection.id)'")
            }
            terms.append(try Self.equality(collection.fields[field], parameter.value))
        }
        if let text = parameters["datetime"] {
            // Checked on every collection; applied where there is a temporal field (elsewhere every feature matches).
            let temporal = try OGCDatetime.terms(text, field: collection.temporal.map { collection.fields[$0.field].name } ?? "")
            if collection.temporal != nil { terms += temporal }
            if quirks.has(.pygeoapiDatetime) { try OGCDatetime.checkRange(text, collection: collection) }
        }
        if let text = parameters["filter"] {
            if !quirks.declaresFilter {
                throw .invalidParameter("unknown parameter 'filter': this API does not declare filtering (Part 3)")
            }
            if !quirks.has(.filterIgnored) {
                let language = parameters["filter-lang"] ?? "cql2-text"
                let filterCRS = try Self.crs(parameters["filter-crs"], name: "filter-crs") ?? .crs84
                let filter = try OGCFilter(text, language: language, crs: filterCRS)
                if let attributes = filter.attributes { terms.append(attributes) }
                regions += filter.regions
            }
        }
        carried = list.filter { !Self.pageParameters.contains($0.name.lowercased()) }
        selectionKey = ""
        try readSelection(parameters, collection: collection, quirks: quirks)
        var key = "ogc|" + collection.id
        if !terms.isEmpty {
            do {
                let combined = terms.count == 1 ? terms[0] : FilterExpression(.and(terms))
                let clause = try WhereClause(expression: combined).validated(against: collection.schema)
                let compiled = try WherePredicate(validated: clause, fields: collection.fields)
                predicate = compiled
                key += "|w=" + compiled.normalized
            } catch {
                throw .invalidParameter("the filter is invalid for '\(collection.id)': \(error.message)")
            }
        }
        for region in regions { key += "|r=" + region.key }
        if let order { key += "|s=" + order.normalized }
        if let ids { key += "|ids=" + ids.map(String.init).joined(separator: ",") }
        selectionKey = key
    }

    private static func limit(_ text: String?, quirks: OGCQuirks) throws(OGCError) -> Int {
        guard let text else { return min(10, quirks.maximumLimit) }
        guard let value = Int(text.trimmingSpaces()), value >= 1 else {
            throw .invalidParameter("'limit' must be a whole number of at least 1; found '\(text.prefix(40))'")
        }
        if value > quirks.maximumLimit, quirks.has(.strictLimit) {
            throw .invalidParameter("'limit' must be at most \(quirks.maximumLimit); found \(value)")
        }
        return min(value, quirks.maximumLimit)
    }

    private static func crs(_ text: String?, name: String) throws(OGCError) -> OGCCRS? {
        guard let text else { return nil }
        guard let crs = OGCCRS(parameter: text) else {
            throw .invalidParameter("'\(name)' '\(text.prefix(80))' is not in the collection's crs list: "
                + OGCCRS.allCases.map(\.uri).joined(separator: ", "))
        }
        return crs
    }

    private static func boxes(_ text: String, crs: OGCCRS) throws(OGCError) -> [Envelope] {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces()) }
        guard numbers.count == 4 || numbers.count == 6, numbers.allSatisfy({ $0?.isFinite == true }) else {
            throw .invalidParameter("'bbox' must be 4 or 6 comma-separated numbers; found '\(text.prefix(80))'")
        }
        let values = numbers.compactMap { $0 }
        let corners = values.count == 6 ? [values[0], values[1], values[3], values[4]] : values
        // Latitude (the second axis, the first in EPSG:4326) must be ordered; longitude may cross 180°.
        let latitudes = crs == .epsg4326 ? (corners[0], corners[2]) : (corners[1], corners[3])
        guard latitudes.0 <= latitudes.1 else {
            throw .invalidParameter("'bbox' has its lower corner above its upper one: '\(text.prefix(80))'")
        }
        return crs.lonLatBoxes(corners)
    }

    /// `name=value` for a queryable: equality, the value read as the field's type.
    private static func equality(_ field: FieldDefinition, _ value: String) throws(OGCError) -> FilterExpression {
        let literal: Literal
        switch field.type {
        case .objectID, .integer, .smallInteger, .bigInteger, .double, .single:
            if let integer = Int64(value.trimmingSpaces()) {
                literal = .integer(integer)
            } else if let double = Double(value.trimmingSpaces()), double.isFinite {
                literal = .double(double)
            } else {
                throw .invalidParameter("'\(field.name)' is a number; found '\(value.prefix(40))'")
            }
        case .date:
            guard let timestamp = CalendarTimestamp(parsing: value.trimmingSpaces()) else {
                throw .invalidParameter("'\(field.name)' is a date-time (RFC 3339); found '\(value.prefix(40))'")
            }
            literal = .timestamp(timestamp)
        case .string, .globalID, .guid:
            literal = .string(value)
        }
        return FilterExpression(.comparison(.equal, FilterExpression(.field(field.name)), FilterExpression(.literal(literal))))
    }
}
