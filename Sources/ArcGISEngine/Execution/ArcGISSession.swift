import CurlHTTP
import EngineExecution
import FeatureService
import Logging

/// One query's requests: the engine's transport with the credentials the query uses and the ArcGIS way of
/// building a request. Runners hold this, so every request they send (ids, counts, pages, id chunks) asks the
/// authenticator for its own URL.
struct ArcGISSession: Sendable {
    let transport: EngineTransport
    let auth: QueryAuthentication
    let configuration: ArcGISEngineConfiguration

    var logger: Logger { transport.logger }

    /// Fetches `endpoint` (a layer or service URL, or `…/query`) with `parameters`, GET or POST by length, and
    /// decodes the body. Throws ``FeatureServiceError`` or `CancellationError`.
    func fetch<T: Sendable>(
        _ endpoint: String, origin: String, parameters: QueryParameters, layer: String, counter: RequestCounter?,
        decode: ([UInt8]) throws(FeatureServiceError) -> T
    ) async throws -> T {
        let configuration = configuration
        return try await transport.fetch(
            endpoint, origin: origin, layer: layer, counter: counter, auth: auth,
            request: { url, applied in Self.request(url, parameters: parameters, applied: applied, configuration: configuration) },
            decode: { response throws(FeatureServiceError) in try decode(response.body) })
    }

    /// The request for one attempt: the parameters (an API key's among them), the credentials' headers and
    /// network rule, the timeout.
    private static func request(
        _ endpoint: String, parameters: QueryParameters, applied: AppliedAuthentication, configuration: ArcGISEngineConfiguration
    ) -> HTTPRequest {
        var parameters = parameters
        for field in applied.parameters { parameters.append(field.name, field.value) }
        var request = applied.applied(to: parameters.request(endpoint: endpoint, maxGETURLLength: configuration.maxGETURLLength))
        request.options.timeout = configuration.requestTimeout
        // A request that carries credentials follows no redirect: ArcGIS REST services do not redirect their
        // queries, and a credential must not ride one to a URL its scope was not checked against.
        if !applied.isEmpty { request.options.followRedirects = .never }
        return request
    }
}

extension TransportRules {
    /// ArcGIS REST: an error body may come with HTTP 200 (decoders throw it); 498 and 499 (in a body or as the
    /// status) reject a token, which one refresh may cure; a 401 without an error body is web-tier
    /// authentication, which tokens do not cure; a 403 is never refreshed.
    static let arcGIS = TransportRules(
        name: "ArcGIS",
        check: { response, layer throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(response.status, headers: response.headers, body: response.body, layer: layer)
        },
        rejection: { error in
            if let code = error.serviceCode {
                return code == 498 || code == 499 ? .token(serviceCode: code, evidence: "ArcGIS error \(code)", tokenRequired: true) : nil
            }
            if let status = error.httpStatus, status == 498 || status == 499 {
                return .token(serviceCode: status, evidence: "ArcGIS error \(status)", tokenRequired: true)
            }
            return error.httpStatus == 401 ? .webTier(evidence: "HTTP 401") : nil
        },
        errorLayer: { ArcGISResponse.normalizedURL($0) },
        redactMessage: { ArcGISResponse.redactingTokens($0) },
        followsRedirectsWithCredentials: false)
}
