import Hummingbird

/// Turns JSON bodies and errors into HTTP responses in the format `f` asked for. (Named for what it does,
/// and apart from the engine's `ArcGISResponse`, which reads such responses.)
enum RESTResponseWriter {
    static let jsonType = "application/json; charset=utf-8"
    static let geoJSONType = "application/geo+json; charset=utf-8"
    static let prettyType = "text/plain; charset=utf-8"

    /// A JSON resource: compact for `f=json`, indented for `f=pjson`, an HTML view for `f=html`.
    static func resource(_ json: [UInt8], format: ResponseFormat, title: String) -> Response {
        switch format {
        case .json:
            return .bytes(json, contentType: jsonType)
        case .geojson:
            return .bytes(json, contentType: geoJSONType)
        case .pjson:
            return .bytes(JSONPrettyPrinter.pretty(json), contentType: prettyType)
        case .html:
            return .text(HTMLPage.resource(title: title, json: json), contentType: HTMLPage.contentType)
        }
    }

    /// An ArcGIS error body, with HTTP 200 as ArcGIS sends it.
    static func error(_ error: ArcGISServiceError, format: ResponseFormat?) -> Response {
        switch format {
        case .pjson: resource(error.json, format: .pjson, title: "Error")
        case .html: resource(error.json, format: .html, title: "Error")
        default: resource(error.json, format: .json, title: "Error")
        }
    }
}
