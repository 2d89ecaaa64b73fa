import CurlHTTP
import Foundation
import SampleFeatureServer
import Synchronization
import Testing

@Suite("Token seam")
struct TokenSeamTests {
    @Test("the authorizer sees tokens from the parameter or bearer headers and its refusals are ArcGIS errors")
    func authorizer() async throws {
        let seen = Mutex<[AuthorizationRequest]>([])
        var configuration = SampleServerConfiguration()
        configuration.authorizer = { request in
            seen.withLock { $0.append(request) }
            guard request.service != nil else { return .allow }  // directory and info are public
            switch request.token {
            case nil: return .tokenRequired
            case "good": return request.layer == .states ? .forbidden : .allow
            default: return .invalidToken
            }
        }
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let count = [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]
            #expect(try await client.json(server.baseURL, [("f", "json")])["services"] != nil)
            let info = try await client.json(server.rootURL + "/arcgis/rest/info", [("f", "json")])
            #expect((info["authInfo"] as? [String: Any])?["isTokenBasedSecurity"] as? Bool == true)
            #expect(try await client.query(server, .cities, count).errorCode == 499)
            #expect(try await client.query(server, .cities, count + [("token", "stale")]).errorCode == 498)
            #expect(try await client.query(server, .cities, count + [("token", "good")]).countResult != nil)
            #expect(try await client.query(server, .states, count + [("token", "good")]).errorCode == 403)
            var headers = HTTPHeaders()
            headers.add("X-Esri-Authorization", "Bearer good")
            let query = count.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
            let bearer = try await client.execute(HTTPRequest(url: server.queryURL(.cities) + "?" + query, headers: headers))
            #expect(try bearer.jsonObject().countResult != nil)
            let posted = try await client.post(server.queryURL(.cities), count + [("token", "good")])
            #expect(try posted.jsonObject().countResult != nil)
            let requests = seen.withLock { $0 }
            #expect(requests.contains { $0.layer == .cities && $0.token == "good" && $0.method == "POST" })
            #expect(requests.contains { $0.path == "/arcgis/rest/services/USA/MapServer/0/query" })
            // Tokens are not kept in the request log.
            let logged = server.statistics.recentRequests.filter(\.hadToken)
            #expect(logged.count == 5)
            #expect(logged.allSatisfy { $0.parameter("token") == nil || $0.parameter("token") == "<redacted>" })
        }
    }
}
