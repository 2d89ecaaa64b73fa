import CurlHTTP
import FeatureQuerySupport
import SampleFeatureServer

/// The sample feature server as a secured ArcGIS deployment (lane S): a portal, a server federated with it, a
/// standalone server, and another portal with a server of its own. Each on its own loopback port.
struct SampleDeployment {
    let authority: SampleTokenAuthority
    let portal: SampleFeatureServer
    let federated: SampleFeatureServer
    let standalone: SampleFeatureServer
    let otherPortal: SampleFeatureServer
    let otherFederated: SampleFeatureServer

    var generateTokenURL: String { portal.rootURL + "/portal/sharing/rest/generateToken" }
    var portalURL: String { portal.rootURL + "/portal" }
    /// Scopes covering this authority's three servers, as a JSON list.
    var scopes: String { "[\"\(portal.rootURL)\",\"\(federated.rootURL)\",\"\(standalone.rootURL)\"]" }

    static func with<T>(
        knobs: SampleSecurityKnobs = SampleSecurityKnobs(), _ body: (SampleDeployment, HTTPClient) async throws -> T
    ) async throws -> T {
        let authority = SampleTokenAuthority(knobs: knobs)
        let other = SampleTokenAuthority()
        let dataset = try SampleDataset.shared(parcelCount: 2_000, seed: 1)
        let client = try HTTPClient(logger: TestSupport.logger)
        var started: [SampleFeatureServer] = []
        do {
            let roles: [(SampleTokenAuthority, SampleSecurityRole)] = [
                (authority, .portal), (authority, .federated), (authority, .standalone), (other, .portal), (other, .federated),
            ]
            for (owner, role) in roles {
                let configuration = SampleServerConfiguration(security: SampleSecurity(authority: owner, role: role))
                started.append(try await SampleFeatureServer.start(configuration: configuration, dataset: dataset, logger: TestSupport.logger))
            }
            let deployment = SampleDeployment(
                authority: authority, portal: started[0], federated: started[1], standalone: started[2], otherPortal: started[3],
                otherFederated: started[4])
            let result = try await body(deployment, client)
            await stop(started, client)
            return result
        } catch {
            await stop(started, client)
            throw error
        }
    }

    private static func stop(_ servers: [SampleFeatureServer], _ client: HTTPClient) async {
        await client.shutdown()
        for server in servers { await server.shutdown() }
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
