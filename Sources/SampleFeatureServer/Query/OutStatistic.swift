import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// One `outStatistics` entry: `{"statisticType":"max","onStatisticField":"OBJECTID","outStatisticFieldName":"maxid"}`.
/// Statistics run over the whole selection (no `groupByFieldsForStatistics`); esridump and others use
/// min/max of the object id this way to walk layers that cannot paginate.
struct OutStatistic: Sendable {
    enum Kind: String, Sendable {
        case count, sum, min, max, avg, stddev, `var`
    }

    let kind: Kind
    let field: Int
    let outName: String

    static func parse(_ text: String, layer: LayerDefinition) throws(ArcGISServiceError) -> [OutStatistic] {
        let json: ParsedJSON
        do {
            json = try ParsedJSON(reading: text)
        } catch {
            throw .invalidRequest("'outStatistics' is not JSON: \(RequestParameters.describe(error))")
        }
        guard case .array(let items) = json, !items.isEmpty else {
            throw .invalidRequest("'outStatistics' must be a non-empty JSON array")
        }
        var result: [OutStatistic] = []
        for item in items {
            guard case .string(let typeName)? = item["statisticType"], let kind = Kind(rawValue: typeName.lowercased()) else {
                throw .invalidRequest("'outStatistics' needs a statisticType of count, sum, min, max, avg, stddev or var")
            }
            guard case .string(let fieldName)? = item["onStatisticField"], let field = layer.fieldIndex(fieldName) else {
                throw .invalidRequest("'outStatistics' needs an onStatisticField naming a field of the layer")
            }
            var outName = "\(kind.rawValue)_\(layer.fields[field].name)"
            if case .string(let name)? = item["outStatisticFieldName"], !name.isEmpty { outName = name }
            result.append(OutStatistic(kind: kind, field: field, outName: outName))
        }
        return result
    }

    /// The statistic over the selected features, and the Esri type of the result.
    func compute(_ indices: [Int32], source: FeatureSource, layer: LayerDefinition) -> (AttributeValue, FieldType) {
        var count = 0
        var sum = 0.0
        var squares = 0.0
        var low: AttributeValue = .null
        var high: AttributeValue = .null
        for index in indices {
            let value = source.value(field, Int(index))
            if case .null = value { continue }
            count += 1
            if case .integer(let number) = value {
                sum += Double(number)
                squares += Double(number) * Double(number)
            } else if case .double(let number) = value {
                sum += number
                squares += number * number
            }
            if case .null = low { low = value } else if SortOrder.compare(value, low) < 0 { low = value }
            if case .null = high { high = value } else if SortOrder.compare(value, high) > 0 { high = value }
        }
        let type = layer.fields[field].type
        switch kind {
        case .count: return (.integer(Int64(count)), .integer)
        case .sum: return (.double(sum), .double)
        case .min: return (low, type == .objectID ? .integer : type)
        case .max: return (high, type == .objectID ? .integer : type)
        case .avg: return (count == 0 ? .null : .double(sum / Double(count)), .double)
        case .stddev, .var:
            guard count > 1 else { return (.null, .double) }
            let variance = (squares - sum * sum / Double(count)) / Double(count - 1)
            return (.double(kind == .var ? variance : variance.squareRoot()), .double)
        }
    }
}
