import FeatureQuerySupport
import Hummingbird

/// The JSON the token endpoints and the security gate answer with.
enum SecurityResponses {
    /// `{"token":"...","expires":<epoch ms>,"ssl":false}`.
    static func generated(_ token: GeneratedToken) -> Response {
        var json = JSONWriter(capacity: 128)
        json.raw("{\"token\":")
        json.string(token.token)
        json.raw(",\"expires\":")
        json.integer(Int(token.expires))
        json.raw(",\"ssl\":")
        json.bool(token.ssl)
        json.raw("}")
        return body(json.bytes)
    }

    /// `{"access_token":...,"expires_in":...,["username":...,]"ssl":...[,"refresh_token":...,"refresh_token_expires_in":...]}`.
    static func oauth(_ answer: OAuthTokenAnswer) -> Response {
        var json = JSONWriter(capacity: 256)
        json.raw("{\"access_token\":")
        json.string(answer.accessToken)
        json.raw(",\"expires_in\":")
        json.integer(answer.expiresIn)
        if let username = answer.username {
            json.raw(",\"username\":")
            json.string(username)
        }
        json.raw(",\"ssl\":")
        json.bool(answer.ssl)
        if let refresh = answer.refreshToken {
            json.raw(",\"refresh_token\":")
            json.string(refresh)
        }
        if let seconds = answer.refreshTokenExpiresIn {
            json.raw(",\"refresh_token_expires_in\":")
            json.integer(seconds)
        }
        json.raw("}")
        return body(json.bytes)
    }

    /// A token endpoint's error: `{"error":{"code":400,["error":"invalid_client","error_description":"...",]
    /// "message":"...","details":[...]}}`, HTTP 200 unless the error says otherwise.
    static func error(_ error: TokenEndpointError) -> Response {
        var json = JSONWriter(capacity: 192)
        json.raw("{\"error\":{\"code\":")
        json.integer(error.code)
        if let oauth = error.oauthError {
            json.raw(",\"error\":")
            json.string(oauth)
            json.raw(",\"error_description\":")
            json.string(error.message)
        }
        json.raw(",\"message\":")
        json.string(error.message)
        json.raw(",\"details\":[")
        for (index, detail) in error.details.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(detail)
        }
        json.raw("]}}")
        return body(json.bytes, status: error.status)
    }

    /// A secured request refused, in the shape asked for.
    static func refusal(_ refusal: SecurityRefusal) -> Response {
        let message: String
        let adminMessage: String
        switch refusal.code {
        case 499:
            message = "Token Required"
            adminMessage = "Token Required."
        case 403:
            message = "You do not have permissions to access this resource or perform this operation."
            adminMessage = message
        default:
            message = "Invalid Token"
            adminMessage = "Token Expired."
        }
        switch refusal.shape {
        case .errorBody:
            return body(ArcGISServiceError(code: refusal.code, message: message).json)
        case .httpStatus:
            return body(ArcGISServiceError(code: refusal.code, message: message).json, status: refusal.code)
        case .admin:
            var json = JSONWriter(capacity: 96)
            json.raw("{\"status\":\"error\",\"messages\":[")
            json.string(adminMessage)
            json.raw("],\"code\":")
            json.integer(refusal.code)
            json.raw("}")
            return body(json.bytes)
        }
    }

    static func body(_ bytes: [UInt8], status: Int = 200) -> Response {
        .bytes(bytes, status: status, contentType: RESTResponseWriter.jsonType)
    }

    /// A small HTML page (the authorize page's errors and sign-in form).
    static func page(_ title: String, _ body: String, status: Int = 200) -> Response {
        .text(HTMLPage.page(title: title, body: body), status: status, contentType: HTMLPage.contentType)
    }
}
