import CurlHTTP
import EngineExecution
import FeatureService
import Logging

/// One query's requests: the engine's transport with the credentials the query uses and the OGC API way of
/// building a request. Discovery, pagers and runners hold this, so every request they send (a `next` link, a
/// tile) asks the authenticator for its own URL.
struct OGCSession: Sendable {
    /// What OGC API Features asks for JSON data: GeoJSON first, plain JSON accepted (pygeoapi answers it).
    static let acceptJSON = "application/geo+json, application/json;q=0.9"

    let transport: EngineTransport
    let auth: QueryAuthentication
    let configuration: OGCEngineConfiguration

    var logger: Logger { transport.logger }

    /// Fetches `url` and decodes the checked answer. Throws ``FeatureServiceError`` or `CancellationError`.
    func fetch<T: Sendable>(
        _ url: String, layer: String, accept: String = OGCSession.acceptJSON, maxResponseSize: Int? = nil,
        decode: (HTTPResponse) throws(FeatureServiceError) -> T
    ) async throws -> T {
        let timeout = configuration.requestTimeout
        return try await transport.fetch(
            url, origin: URIReference.origin(of: url) ?? url, layer: layer, auth: auth,
            request: { url, applied in
                var request = applied.applied(
                    to: HTTPRequest(url: URLParameters.setting(applied.parameters, in: url), headers: ["Accept": accept]))
                request.options.timeout = timeout
                // Servers redirect (`/collections` to `/collections/`); within the origin only, as `next` links
                // are. A request with credentials follows them in the transport, asking again for each URL.
                request.options.followRedirects = applied.isEmpty ? .sameOrigin(maxRedirects: 5) : .never
                request.options.maxResponseSize = maxResponseSize
                return request
            },
            decode: decode)
    }
}

extension TransportRules {
    /// OGC API Features: success is a 2xx (exception bodies otherwise); a 401 refuses what the request carried,
    /// which one refresh may cure (the authenticator is told service code 498); a 403 is never refreshed.
    static let ogc = TransportRules(
        name: "OGC API",
        check: { response, layer throws(FeatureServiceError) in try OGCResponse.checkStatus(response, layer: layer) },
        rejection: { error in error.httpStatus == 401 ? .token(serviceCode: 498, evidence: "HTTP 401", tokenRequired: false) : nil },
        followsRedirectsWithCredentials: true)
}
