import FeatureQuerySupport
import Hummingbird

/// An error the OGC face answers with its HTTP status and the exception body OGC API Common describes:
/// `{"code":"InvalidParameterValue","description":"..."}`. Every bad parameter becomes one of these.
struct OGCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status: 400 for bad parameters, 404 for unknown resources.
    var status: Int
    /// The exception code (`InvalidParameterValue`, `NotFound`, ...).
    var code: String
    /// What exactly was wrong, for a person.
    var message: String

    static func invalidParameter(_ message: String) -> OGCError {
        OGCError(status: 400, code: "InvalidParameterValue", message: message)
    }

    static func notFound(_ message: String) -> OGCError {
        OGCError(status: 404, code: "NotFound", message: message)
    }

    var description: String { "OGC error \(status) \(code): \(message)" }

    var response: Response {
        var json = JSONWriter(capacity: 128)
        json.raw("{\"code\":")
        json.string(code)
        json.raw(",\"description\":")
        json.string(message)
        json.raw("}")
        return .bytes(json.bytes, status: status, contentType: OGCResponses.jsonType)
    }
}

/// Content types and plain JSON responses of the OGC face.
enum OGCResponses {
    static let jsonType = "application/json"
    static let geoJSONType = "application/geo+json"
    static let schemaType = "application/schema+json"
    static let openAPIType = "application/vnd.oai.openapi+json;version=3.0"

    static func json(_ bytes: [UInt8], contentType: String = jsonType, crs: OGCCRS? = nil) -> Response {
        var response = Response.bytes(bytes, contentType: contentType)
        if let crs, let name = HTTPFields.Element.Name("Content-Crs") { response.headers[name] = "<\(crs.uri)>" }
        return response
    }
}
