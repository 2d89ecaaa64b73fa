import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// One page of attribute rows: a statistics answer (one row per group), distinct values, or features asked
/// for the fields the worker aggregates. Rows keep their JSON members; ``AttributeColumns`` reads them.
struct AttributePage: Sendable {
    /// Each feature's `attributes` object.
    var rows: [[String: ParsedJSON]]
    /// Each feature's `geometry`, when asked for (`nil` where a feature has none).
    var geometries: [ParsedJSON?]
    var exceededTransferLimit: Bool
    /// The response's `spatialReference`, which its geometries are in.
    var spatialReference: SpatialReference?
}

extension ArcGISResponse {
    /// A `query` answer read as attribute rows (and geometries when `geometry`): statistics, distinct values and
    /// the features the worker aggregates. Throws the mapped error for an ArcGIS error body (a service that
    /// claims statistics and answers "Cannot complete operation" gives `.serviceError`), `.malformedResponse`
    /// for any other shape.
    static func attributePage(_ body: [UInt8], layer: String, geometry: Bool = false) throws(FeatureServiceError) -> AttributePage {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "a feature set")
        guard let features = members["features"]?.arrayValue else {
            throw context.malformed("has no \"features\" array, so it is not a feature set")
        }
        var rows: [[String: ParsedJSON]] = []
        var geometries: [ParsedJSON?] = []
        rows.reserveCapacity(features.count)
        for (position, feature) in features.enumerated() {
            guard let attributes = feature["attributes"]?.objectValue else {
                throw context.malformed("has a feature (number \(position + 1)) without an \"attributes\" object")
            }
            rows.append(attributes)
            if geometry {
                let value = feature["geometry"]
                geometries.append(value.flatMap { $0.isNull ? nil : $0 })
            }
        }
        let reference = members["spatialReference"].flatMap { try? EsriJSON.decodeSpatialReference($0) }
        return AttributePage(
            rows: rows, geometries: geometries, exceededTransferLimit: members["exceededTransferLimit"]?.boolValue ?? false,
            spatialReference: reference)
    }

    /// A `returnExtentOnly` + `returnCountOnly` answer: `{"count": n, "extent": {...}}`; the extent is nil for
    /// an empty selection (or a null/NaN extent, which services send for one).
    static func countAndExtent(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> (count: Int, extent: Envelope?) {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "a count and an extent")
        guard let count = members["count"]?.integerValue, count >= 0 else {
            throw context.malformed("has no non-negative \"count\", so it is not an answer to returnExtentOnly with returnCountOnly")
        }
        guard count > 0, let value = members["extent"], !value.isNull else { return (count, nil) }
        let geometry: Geometry
        do { geometry = try EsriJSON.decode(value) } catch {
            if count == 0 { return (count, nil) }
            throw context.malformed("gives an extent that is not an Esri envelope: \(error)")
        }
        guard case .envelope(let envelope) = geometry else {
            throw context.malformed("gives an extent that is not an envelope")
        }
        return (count, envelope)
    }
}

/// Reads rows' values by field name in any letter case (services answer `SUB_REGION` for `sub_region`), typed
/// by the layer's fields: integers stay integers, dates are epoch milliseconds.
struct AttributeColumns: Sendable {
    /// The names asked for, in the order records carry them.
    let names: [String]
    /// The type of each name's values; nil for a statistic's own output (typed by the number).
    let types: [FieldType?]

    init(names: [String], types: [FieldType?]) {
        self.names = names
        self.types = types
    }

    /// The row's values in ``names``' order; a name the row lacks is null.
    func record(_ row: [String: ParsedJSON]) -> [AttributeValue] {
        var record: [AttributeValue] = []
        record.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            let value = row[name] ?? row.first { $0.key.caseInsensitiveEquals(name) }?.value
            record.append(Self.value(value, type: types[index]))
        }
        return record
    }

    /// A JSON value as an attribute: numbers by the field's type (an integral number of an untyped output is
    /// an integer), strings as they are, null (or absent) as null.
    static func value(_ json: ParsedJSON?, type: FieldType?) -> AttributeValue {
        switch json {
        case .number(let number)?:
            switch type {
            case .date?:
                return Int64(exactly: number.rounded()).map { .date($0) } ?? .double(number)
            case .double?, .single?:
                return .double(number)
            case .string?, .globalID?, .guid?:
                return .string(Int64(exactly: number).map(String.init) ?? String(number))
            case .objectID?, .integer?, .smallInteger?, .bigInteger?, nil:
                if number == number.rounded(), abs(number) < 9.007_199_254_740_992e15, let integer = Int64(exactly: number) {
                    return .integer(integer)
                }
                return .double(number)
            }
        case .string(let text)?: return .string(text)
        case .bool(let flag)?: return .integer(flag ? 1 : 0)
        default: return .null
        }
    }
}
