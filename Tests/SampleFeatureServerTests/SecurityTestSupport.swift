import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// Secured deployments for the security tests: a portal, a server federated with it, a standalone server
/// with its own token service, and a second portal with a server of its own (for "not federated").
typealias SecuredDeployment = SecuredSampleDeployment

extension SecuredSampleDeployment {
    /// Starts the five servers, runs `body` with a client, stops them.
    static func with<T>(
        knobs: SampleSecurityKnobs = SampleSecurityKnobs(),
        _ body: (SecuredDeployment, HTTPClient) async throws -> T
    ) async throws -> T {
        try await with(dataset: try TestSupport.dataset(), knobs: knobs, logger: TestSupport.logger) { deployment in
            let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: TestSupport.logger)
            do {
                let result = try await body(deployment, client)
                await client.shutdown()
                return result
            } catch {
                await client.shutdown()
                throw error
            }
        }
    }

    /// A portal token for `viewer` (or the given user), as JSON.
    func portalToken(
        _ client: HTTPClient, username: String = "viewer", password: String = "viewer-password", extra: [(String, String)] = []
    ) async throws -> [String: Any] {
        try await client.form(generateTokenURL, [("username", username), ("password", password), ("f", "json")] + extra).jsonObject()
    }
}

/// The count query the secured tests run: small, and it proves the layer answered.
let countQuery = [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]

extension HTTPClient {
    /// POST a form with extra headers.
    func form(_ url: String, _ fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        try await execute(HTTPRequest.formPost(url: url, fields: fields, headers: headers))
    }

    /// GET with the token in `X-Esri-Authorization: Bearer` and, when given, a `Referer`.
    func secured(_ url: String, _ parameters: [(String, String)] = countQuery, token: String?, referer: String? = nil) async throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let token { headers.add("X-Esri-Authorization", "Bearer " + token) }
        if let referer { headers.add("Referer", referer) }
        let query = parameters.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
        return try await execute(HTTPRequest(url: url + "?" + query, headers: headers))
    }
}

extension Dictionary where Key == String, Value == Any {
    var token: String? { self["token"] as? String }
    var accessToken: String? { self["access_token"] as? String }
    var refreshToken: String? { self["refresh_token"] as? String }
    var errorMessage: String? { error?["message"] as? String }
    var oauthError: String? { error?["error"] as? String }
    func int64(_ key: String) -> Int64? { (self[key] as? NSNumber)?.int64Value }
    func bool(_ key: String) -> Bool? { (self[key] as? NSNumber)?.boolValue }
}

/// Now, in epoch milliseconds.
func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
