/// What the authorization hook is told about a request.
package struct AuthorizationRequest: Sendable, Hashable {
    /// The token the client sent: the `token` parameter, or else the bearer token of the
    /// `X-Esri-Authorization` or `Authorization` header.
    package var token: String?
    /// The service the request is for; nil for the services directory and `/arcgis/rest/info`.
    package var service: SampleService?
    /// The layer the request is for, if any.
    package var layer: SampleLayer?
    /// The percent-decoded path, e.g. `/arcgis/rest/services/USA/MapServer/1/query`.
    package var path: String
    /// `GET` or `POST`.
    package var method: String
}

/// The hook's answer.
package enum AuthorizationDecision: Sendable, Hashable {
    case allow
    /// Refuse with an ArcGIS error body of this code (498 invalid token, 499 token required, 403 not
    /// permitted) and message, sent with HTTP 200 as ArcGIS does.
    case deny(code: Int, message: String)

    /// 499 "Token Required".
    package static let tokenRequired = AuthorizationDecision.deny(code: 499, message: "Token Required")
    /// 498 "Invalid Token".
    package static let invalidToken = AuthorizationDecision.deny(code: 498, message: "Invalid Token")
    /// 403, ArcGIS's wording.
    package static let forbidden = AuthorizationDecision.deny(
        code: 403, message: "You do not have permissions to access this resource or perform this operation.")
}

/// Decides whether a request may proceed: the seam where a later issue adds real token authentication.
/// It runs after faults and before the request is handled; the default (no hook) allows everything.
package typealias SampleServerAuthorizer = @Sendable (AuthorizationRequest) async -> AuthorizationDecision
