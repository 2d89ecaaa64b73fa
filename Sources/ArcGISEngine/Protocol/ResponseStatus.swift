import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import FeatureService

extension ArcGISResponse {
    /// Classifies a response by its status before its body is decoded.
    ///
    /// A 2xx passes (the decoders then look for ArcGIS error bodies, which usually come with 200). Any other
    /// status throws: with the ArcGIS error body inside when there is one (its code decides, as in the
    /// decoders), else `.notFound` for 404, `.forbidden` for 401 and 403, and `.httpStatus` for the rest,
    /// retryable for 408, 429, 500, 502, 503 and 504. The error carries the status, and `retryAfter` from a
    /// `Retry-After` header on any status, so a caller backing off can honour the service.
    ///
    /// - Parameter now: seconds since 1970 UTC, against which a `Retry-After` HTTP-date is measured; nil: the
    ///   clock, read only for a status that is not 2xx.
    static func checkStatus(
        _ status: Int, headers: HTTPHeaders, body: [UInt8], layer: String, now: Int64? = nil
    ) throws(FeatureServiceError) {
        guard !(200..<300).contains(status) else { return }
        let layer = normalizedURL(layer)
        let wait = retryAfter(headers, now: now ?? unixTimeNow())
        if let serviceError = errorBody(body) {
            throw serviceError.error(layer: layer, httpStatus: status, retryAfter: wait)
        }
        let code: FeatureServiceError.Code
        let retryable: Bool
        var text = "\(layer) answered HTTP \(status)\(reasonPhrase(status).map { " (\($0))" } ?? "")"
        switch status {
        case 404:
            (code, retryable) = (.notFound, false)
            text += ": the layer or service does not exist; check the URL"
        case 401, 403:
            (code, retryable) = (.forbidden, false)
            text += ": the request is not permitted; check the credential"
        case 408, 429, 500, 502, 503, 504:
            (code, retryable) = (.httpStatus, true)
            text += "; trying again later may help"
        default:
            (code, retryable) = (.httpStatus, false)
        }
        if let title = htmlTitleIfHTML(body) {
            text += " (the body is an HTML page titled \"\(title)\")"
        }
        throw FeatureServiceError(code, text, layer: layer, isRetryable: retryable, httpStatus: status, retryAfter: wait)
    }

    /// How long a `Retry-After` header asks the client to wait (``RetryAfter/delay(_:now:)``): delta seconds or
    /// an HTTP-date measured from `now`; nil when absent or unreadable.
    ///
    /// - Parameter now: seconds since 1970 UTC.
    static func retryAfter(_ headers: HTTPHeaders, now: Int64 = unixTimeNow()) -> Duration? {
        RetryAfter.delay(headers["Retry-After"], now: now)
    }

    /// The system clock: seconds since 1970 UTC.
    static func unixTimeNow() -> Int64 {
        WallClock.nowSeconds()
    }

    /// The ArcGIS error body inside a non-2xx response, if it is one (parsed only when small: error bodies are).
    static func errorBody(_ body: [UInt8]) -> ServiceErrorBody? {
        guard body.count <= 1 << 20 else { return nil }
        var start = 0
        if body.count >= 3, body[0] == 0xEF, body[1] == 0xBB, body[2] == 0xBF { start = 3 }
        while start < body.count, body[start] == 0x20 || body[start] == 0x09 || body[start] == 0x0A || body[start] == 0x0D {
            start += 1
        }
        guard start < body.count, body[start] == UInt8(ascii: "{") else { return nil }
        guard let value = try? ParsedJSON(reading: body[start...]), case .object(let members) = value else {
            return nil
        }
        return ServiceErrorBody(members)
    }

    private static func htmlTitleIfHTML(_ body: [UInt8]) -> String? {
        guard let first = body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
            first == UInt8(ascii: "<")
        else { return nil }
        return ResponseContext.htmlTitle(body)
    }

    private static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }
}
