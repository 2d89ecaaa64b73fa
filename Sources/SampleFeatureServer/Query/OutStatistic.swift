import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// One `outStatistics` entry: `{"statisticType":"max","onStatisticField":"OBJECTID","outStatisticFieldName":"maxid"}`,
/// or a percentile with `"statisticParameters":{"value":0.9,"orderBy":"DESC"}`. Statistics run over the whole
/// selection or, with `groupByFieldsForStatistics`, over each group; esridump and others use min/max of the
/// object id this way to walk layers that cannot paginate. The semantics are PostgreSQL's (the reference
/// oracle): NULLs are skipped, count counts non-NULL values, stddev/var are the sample forms (n−1, NULL for
/// fewer than two values).
struct OutStatistic: Sendable {
    enum Kind: String, Sendable {
        case count, sum, min, max, avg, stddev, `var`
        case percentileCont = "percentile_cont"
        case percentileDisc = "percentile_disc"

        var isPercentile: Bool { self == .percentileCont || self == .percentileDisc }
    }

    let kind: Kind
    let field: Int
    let outName: String
    /// The percentile's fraction (0…1) and whether values are ordered descending.
    var percentile = 0.5
    var descending = false

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
                throw .invalidRequest(
                    "'outStatistics' needs a statisticType of count, sum, min, max, avg, stddev, var, percentile_cont or percentile_disc")
            }
            guard case .string(let fieldName)? = item["onStatisticField"], let field = layer.fieldIndex(fieldName) else {
                throw .invalidRequest("'outStatistics' needs an onStatisticField naming a field of the layer")
            }
            var outName = "\(kind.rawValue)_\(layer.fields[field].name)"
            if case .string(let name)? = item["outStatisticFieldName"], !name.isEmpty {
                guard name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
                    throw .invalidRequest("'outStatisticFieldName' may hold only letters, digits and '_': '\(name.prefix(60))'")
                }
                outName = name
            }
            var statistic = OutStatistic(kind: kind, field: field, outName: outName)
            if kind.isPercentile { try statistic.readParameters(item["statisticParameters"], layer: layer) }
            if [.sum, .avg, .stddev, .var].contains(kind), !Self.isNumeric(layer.fields[field].type) {
                throw .invalidRequest("'\(kind.rawValue)' needs a numeric field; '\(layer.fields[field].name)' is not")
            }
            if result.contains(where: { $0.outName.lowercased() == outName.lowercased() }) {
                throw .invalidRequest("'outStatistics' names the output field '\(outName.prefix(60))' twice")
            }
            result.append(statistic)
        }
        return result
    }

    private mutating func readParameters(_ json: ParsedJSON?, layer: LayerDefinition) throws(ArcGISServiceError) {
        guard case .number(let value)? = json?["value"], value >= 0, value <= 1 else {
            throw .invalidRequest("'\(kind.rawValue)' needs statisticParameters with a value between 0 and 1")
        }
        percentile = value
        if case .string(let order)? = json?["orderBy"] {
            switch order.uppercased() {
            case "ASC": descending = false
            case "DESC": descending = true
            default: throw .invalidRequest("statisticParameters orderBy must be ASC or DESC: '\(order.prefix(20))'")
            }
        }
        if kind == .percentileCont, !Self.isNumeric(layer.fields[field].type) {
            throw .invalidRequest("'percentile_cont' needs a numeric field; '\(layer.fields[field].name)' is not")
        }
    }

    /// The Esri type of the result.
    func resultType(_ layer: LayerDefinition) -> FieldType {
        let type = layer.fields[field].type
        switch kind {
        case .count: return .integer
        case .min, .max, .percentileDisc: return type == .objectID ? .integer : type
        case .sum, .avg, .stddev, .var, .percentileCont: return .double
        }
    }

    /// The statistic over the selected features.
    func compute(_ indices: [Int32], source: FeatureSource) -> AttributeValue {
        if kind.isPercentile { return percentileValue(indices, source: source) }
        var count = 0
        var sum = 0.0
        var low: AttributeValue = .null
        var high: AttributeValue = .null
        var numbers: [Double] = []
        for index in indices {
            let value = source.value(field, Int(index))
            if case .null = value { continue }
            count += 1
            if let number = Self.number(value) {
                sum += number
                if kind == .stddev || kind == .var { numbers.append(number) }
            }
            if case .null = low { low = value } else if SortOrder.compare(value, low) < 0 { low = value }
            if case .null = high { high = value } else if SortOrder.compare(value, high) > 0 { high = value }
        }
        switch kind {
        case .count: return .integer(Int64(count))
        case .sum: return count == 0 ? .null : .double(sum)
        case .min: return low
        case .max: return high
        case .avg: return count == 0 ? .null : .double(sum / Double(count))
        case .stddev, .var, .percentileCont, .percentileDisc:
            guard numbers.count > 1 else { return .null }
            let mean = numbers.reduce(0, +) / Double(numbers.count)  // two passes: exact for small vectors
            let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count - 1)
            return .double(kind == .var ? variance : variance.squareRoot())
        }
    }

    static func isNumeric(_ type: FieldType) -> Bool {
        [.integer, .smallInteger, .bigInteger, .double, .single, .objectID].contains(type)
    }

    static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}
