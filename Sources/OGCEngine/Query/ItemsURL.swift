/// Items request URLs: the collection's items URL with the query's parameters appended, each percent-encoded
/// (RFC 3986 unreserved characters and the `bbox` commas kept).
enum ItemsURL {
    static func build(
        _ itemsURL: String, limit: Int, box: [Double]?, bboxCRS: String? = nil, filter: FilterPlan.ServerPart,
        extra: [QueryParameter] = []
    ) -> String {
        var parameters = [QueryParameter("limit", String(limit))]
        if let box { parameters.append(QueryParameter("bbox", box.map(number).joined(separator: ","))) }
        if box != nil, let bboxCRS { parameters.append(QueryParameter("bbox-crs", bboxCRS)) }
        switch filter {
        case .none: break
        case .cql2(let language, let text):
            parameters.append(QueryParameter("filter-lang", language))
            parameters.append(QueryParameter("filter", text))
        case .parameters(let equalities): parameters += equalities
        }
        parameters += extra
        var url = itemsURL
        var separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        for parameter in parameters {
            url += separator + encode(parameter.name) + "=" + encode(parameter.value)
            separator = "&"
        }
        return url
    }

    /// A coordinate in its shortest exact form, integers without a fraction.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
