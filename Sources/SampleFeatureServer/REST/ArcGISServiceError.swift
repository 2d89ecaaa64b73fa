import FeatureQuerySupport

/// An error the server answers the way ArcGIS does: HTTP 200 with
/// `{"error":{"code":400,"message":"Unable to complete operation.","details":["..."]}}`.
///
/// Every bad input from a request ends up as one of these, never as a crash: the code is ArcGIS's (400 bad
/// request, 404 not found, 498/499/403 for tokens and permissions, 500 server-side failures) and the details
/// say what exactly was wrong.
struct ArcGISServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: Int
    var message: String
    var details: [String]

    init(code: Int, message: String, details: [String] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// A bad request: "Unable to complete operation." with what was wrong in the details.
    static func invalidRequest(_ details: String...) -> ArcGISServiceError {
        ArcGISServiceError(code: 400, message: "Unable to complete operation.", details: details)
    }

    static func serviceNotFound(_ path: String) -> ArcGISServiceError {
        ArcGISServiceError(
            code: 404, message: "Service not found",
            details: ["Service '\(path)' does not exist or is inaccessible."])
    }

    static func layerNotFound(_ id: String) -> ArcGISServiceError {
        ArcGISServiceError(
            code: 404, message: "Layer not found", details: ["The requested layer (layerId: \(id)) was not found."])
    }

    static let invalidURL = ArcGISServiceError(code: 400, message: "Invalid URL", details: ["Invalid URL"])

    static let operationNotSupported = ArcGISServiceError(
        code: 400, message: "Requested operation is not supported by this service.",
        details: ["The layer does not have the Query capability."])

    static let unsupportedFormat = ArcGISServiceError(
        code: 400, message: "Output format not supported.", details: ["'f' parameter is invalid"])

    var description: String { "ArcGIS error \(code): \(message) \(details)" }

    /// The error body ArcGIS sends.
    var json: [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.raw("{\"error\":{\"code\":")
        json.integer(code)
        json.raw(",\"message\":")
        json.string(message)
        json.raw(",\"details\":[")
        for (index, detail) in details.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(detail)
        }
        json.raw("]}}")
        return json.bytes
    }
}
