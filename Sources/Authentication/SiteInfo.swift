import CurlHTTP
import EngineExecution
package import FeatureQuerySupport

/// What an ArcGIS site's `rest/info` says about its tokens: who owns it (`owningSystemUrl`, the portal of a
/// federated server) and where its tokens come from (`authInfo.tokenServicesUrl`).
package struct SiteInfo: Sendable, Hashable {
    package var owningSystemURL: String?
    package var tokenServicesURL: String?
    package var isTokenBasedSecurity: Bool

    package init(owningSystemURL: String?, tokenServicesURL: String?, isTokenBasedSecurity: Bool) {
        self.owningSystemURL = owningSystemURL
        self.tokenServicesURL = tokenServicesURL
        self.isTokenBasedSecurity = isTokenBasedSecurity
    }

    /// Reads `rest/info`'s JSON; `nil` when it is not an info answer (an error body, something else).
    package init?(json: ParsedJSON) {
        guard case .object(let members) = json, members["error"] == nil else { return nil }
        func string(_ value: ParsedJSON?) -> String? {
            guard case .string(let text)? = value, !text.isEmpty else { return nil }
            return text
        }
        let authInfo = members["authInfo"]
        owningSystemURL = string(members["owningSystemUrl"])
        tokenServicesURL = string(authInfo?["tokenServicesUrl"])
        isTokenBasedSecurity = authInfo?["isTokenBasedSecurity"] == .bool(true) || tokenServicesURL != nil
    }

    /// Why a site's `rest/info` could not be read, without any credential (one load serves every credential).
    struct LoadFailure: Error, Sendable {
        var reason: String
        var isRetryable: Bool
    }

    /// A site's answer as cached: its info, or why it has none. A site that answers but not with its info (a
    /// 404, another product) is remembered like a good answer, so a credential with a `tokenUrl` doesn't ask
    /// it again on every request; only retryable failures are not cached.
    enum Answer: Sendable {
        case info(SiteInfo)
        case unusable(reason: String)
    }

    /// Loads `<site>/rest/info?f=json`. Transport failures and 5xx throw a retryable ``LoadFailure``; an
    /// answer that is not an info answer is ``Answer/unusable(reason:)``.
    static func load(site: String, client: HTTPClient, timeout: Duration, network: HTTPCredentialRule?) async throws -> Answer {
        let url = TokenEndpoints.infoURL(siteRoot: site)
        var request = HTTPRequest(url: url, headers: ["Accept": "application/json"])
        request.options.credentials = network
        request.options.timeout = timeout
        request.options.maxResponseSize = 1 << 20
        let response: HTTPResponse
        do {
            response = try await client.tracedExecute(request)
        } catch let error as HTTPError {
            throw LoadFailure(reason: "\(url) could not be reached (\(error.code))", isRetryable: true)
        }
        if response.status >= 500 || response.status == 429 {
            throw LoadFailure(reason: "\(url) answered HTTP \(response.status)", isRetryable: true)
        }
        guard response.status == 200, let json = try? ParsedJSON(reading: response.body), let info = SiteInfo(json: json) else {
            return .unusable(reason: "\(url) did not answer with the site's info (HTTP \(response.status))")
        }
        return .info(info)
    }
}
