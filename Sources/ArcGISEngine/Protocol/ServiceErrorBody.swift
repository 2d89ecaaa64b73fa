import FeatureQuerySupport
import FeatureService

/// An ArcGIS error body, in either of its shapes:
///
/// - the REST shape, usually with HTTP 200: `{"error":{"code":400,"message":"...","details":["..."]}}`
///   (`code` sometimes a string, `message` sometimes empty with the reason in `details`, `details` sometimes a
///   string or null);
/// - the admin and status shape: `{"status":"error","messages":["Token Expired."],"code":498}` (arcgis-rest-js
///   also treats `"failed"` and `"failure"` as errors).
struct ServiceErrorBody: Hashable, Sendable {
    var code: Int?
    var message: String
    var details: [String]

    init(code: Int?, message: String, details: [String]) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// The error a top-level object describes, or nil when it is not an error body.
    init?(_ members: [String: ParsedJSON]) {
        if let error = members["error"], !error.isNull, error != .bool(false) {
            switch error {
            case .object(let fields):
                self.init(
                    code: fields["code"]?.lenientIntegerValue,
                    message: fields["message"]?.stringValue ?? fields["description"]?.stringValue ?? "",
                    details: Self.texts(fields["details"]))
            default:
                self.init(code: members["code"]?.lenientIntegerValue, message: error.messageText, details: [])
            }
            return
        }
        if let status = members["status"]?.stringValue?.lowercased(),
            status == "error" || status == "failed" || status == "failure"
        {
            var messages = Self.texts(members["messages"])
            if messages.isEmpty {
                messages = Self.texts(members["message"] ?? members["statusMessage"])
            }
            self.init(
                code: members["code"]?.lenientIntegerValue, message: messages.first ?? "",
                details: Array(messages.dropFirst()))
            return
        }
        return nil
    }

    /// Strings from an array of values, a single string, or nothing.
    private static func texts(_ value: ParsedJSON?) -> [String] {
        switch value {
        case .array(let items)?: return items.filter { !$0.isNull }.map(\.messageText).filter { !$0.isEmpty }
        case .string(let text)?: return text.isEmpty ? [] : [text]
        default: return []
        }
    }

    /// The error this body means for `layer`, mapped from its code (or, without one, from the HTTP status):
    /// 498/499 authentication, 403 forbidden, 404 not found, 429/500/502/503/504 retryable service errors,
    /// everything else a service error that trying again will not fix.
    func error(layer: String, httpStatus: Int?, retryAfter: Duration?) -> FeatureServiceError {
        let layer = ArcGISResponse.normalizedURL(layer)
        let fromHTTP = code == nil ? httpStatus.flatMap { (200..<300).contains($0) ? nil : $0 } : nil
        let effective = code ?? fromHTTP
        let message = ArcGISResponse.redactingTokens(message.trimmingWhitespace())
        let details = details.map(ArcGISResponse.redactingTokens)
        // The server's words: the message, or the details when the message is empty (a 400 for a missing
        // layer says only "The requested layer (layerId: 99) was not found." in details).
        var said = message.isEmpty ? details.joined(separator: "; ") : message
        if said.isEmpty { said = "no message" }
        let label = code.map { "ArcGIS error \($0): \(said)" } ?? "an ArcGIS error without a code: \(said)"

        let errorCode: FeatureServiceError.Code
        let retryable: Bool
        let text: String
        switch effective {
        case 498:
            (errorCode, retryable) = (.authentication, false)
            text = "\(layer) refused the token (\(label)); it is invalid or expired: get a new token"
        case 499:
            (errorCode, retryable) = (.authentication, false)
            text = "\(layer) requires a token (\(label))"
        case 401 where fromHTTP != nil, 403:
            (errorCode, retryable) = (.forbidden, false)
            text = "\(layer) does not permit this request (\(label)); check the credential's access to the layer"
        case 404:
            (errorCode, retryable) = (.notFound, false)
            text = "\(layer) was not found (\(label)); check the service and layer id"
        case 500:
            (errorCode, retryable) = (.serviceError, true)
            text = "\(layer) failed the request (\(label)); this is often transient, or the page was too big: "
                + "retry, with fewer features per page if it repeats"
        case 408 where fromHTTP != nil, 429, 502, 503, 504:
            (errorCode, retryable) = (.serviceError, true)
            text = "\(layer) could not answer now (\(label)); trying again later may help"
        default:
            (errorCode, retryable) = (.serviceError, false)
            text = "\(layer) answered with \(label)"
        }
        return FeatureServiceError(
            errorCode, text, layer: layer, isRetryable: retryable, httpStatus: httpStatus, serviceCode: code,
            details: details, retryAfter: retryAfter)
    }
}
