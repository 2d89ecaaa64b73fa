import CurlHTTP
import NetworkAuthFixture
import SampleFeatureServer
import Testing

/// The sample feature server behind an authenticating front, as the worker's tests will use it: both faces
/// answer through the front, and the OGC face's links point back at the front (it builds them from `Host`).
@Suite("Network authentication: the sample server behind a front")
struct SampleServerBehindFrontTests {
    @Test("Behind nginx's Basic authentication: ArcGIS and OGC answer with the password, links stay on the front",
          .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func sampleServerBehindBasic() async throws {
        let sample = try await SampleFeatureServer.start(configuration: SampleServerConfiguration(parcelCount: 500, seed: 1), logger: NetworkAuthSupport.logger)
        do {
            try await NginxAuthServer.with(upstream: try NetworkAuthUpstream(origin: sample.rootURL)) { nginx in
                let rule = HTTPCredentialRule(match: .origin(nginx.httpOrigin), authentication: HTTPAuthentication(
                    scheme: .basic, username: NginxAuthServer.basicUser, password: NginxAuthServer.basicPassword))
                try await NetworkAuthSupport.withClient { client in
                    let services = try await client.execute(NetworkAuthSupport.request(nginx.httpOrigin + "/arcgis/rest/services?f=json", rule))
                    #expect(services.status == 200)
                    #expect(services.bodyString.contains("\"services\""))
                    let collections = try await client.execute(NetworkAuthSupport.request(nginx.httpOrigin + "/ogc/collections?f=json", rule))
                    #expect(collections.status == 200)
                    #expect(collections.bodyString.contains(nginx.httpOrigin + "/ogc/collections"), "\(collections.bodyString.prefix(500))")
                    #expect(!collections.bodyString.contains(sample.rootURL))
                    let anonymous = try await client.execute(HTTPRequest(url: nginx.httpOrigin + "/arcgis/rest/services?f=json"))
                    #expect(anonymous.status == 401)
                }
            }
        } catch {
            await sample.shutdown()
            throw error
        }
        await sample.shutdown()
    }
}
