import CurlHTTP
import FeatureQuerySupport
import SampleFeatureServer

/// The sample feature server as a secured ArcGIS deployment (a portal, a server federated with it, a standalone
/// server, and another portal with a server of its own), each on its own loopback port.
typealias SampleDeployment = SecuredSampleDeployment

extension SecuredSampleDeployment {
    /// Scopes covering this authority's three servers, as a JSON list.
    var scopes: String { "[\"\(portal.rootURL)\",\"\(federated.rootURL)\",\"\(standalone.rootURL)\"]" }

    /// Starts the five servers, runs `body` with a client, stops them.
    static func with<T>(
        knobs: SampleSecurityKnobs = SampleSecurityKnobs(), _ body: (SampleDeployment, HTTPClient) async throws -> T
    ) async throws -> T {
        try await with(dataset: try SampleDataset.shared(parcelCount: 2_000, seed: 1), knobs: knobs, logger: TestSupport.logger) { deployment in
            let client = try HTTPClient(logger: TestSupport.logger)
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

    /// A count query on a secured layer with `token` in `X-Esri-Authorization` and `referer`: the count, or nil
    /// when the service refused (the ArcGIS error body).
    static func count(_ client: HTTPClient, _ layerURL: String, token: String, referer: String?) async throws -> Int? {
        var headers: HTTPHeaders = ["X-Esri-Authorization": "Bearer " + token]
        if let referer { headers.add("Referer", referer) }
        let response = try await client.execute(HTTPRequest(url: layerURL + "/query?where=1%3D1&returnCountOnly=true&f=json", headers: headers))
        guard response.status == 200, case .number(let count)? = try ParsedJSON(reading: response.body)["count"] else { return nil }
        return Int(count)
    }
}
