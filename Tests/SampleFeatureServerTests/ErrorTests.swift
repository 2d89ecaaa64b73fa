import CurlHTTP
import SampleFeatureServer
import Testing

@Suite("ArcGIS error bodies")
struct ErrorTests {
    /// Sends a query and requires HTTP 200 with an ArcGIS error body of `code`; returns the details.
    private func expectError(
        _ server: SampleFeatureServer, _ client: HTTPClient, _ parameters: [(String, String)], layer: SampleLayer = .parcels,
        code: Int = 400
    ) async throws -> [String] {
        let response = try await client.get(server.queryURL(layer), parameters)
        #expect(response.status == 200)
        let body = try response.jsonObject()
        #expect(body.errorCode == code, "\(parameters): \(response.bodyString)")
        #expect(body.error?["message"] is String)
        return body.errorDetails
    }

    @Test("a bad where clause: 400 'Unable to complete operation.' with the query language's message in details")
    func badWhere() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let syntax = try await expectError(server, client, [("where", "UseType = 'Residential"), ("f", "json")])
            #expect(syntax.first?.contains("'where' parameter is invalid") == true)
            let unknown = try await expectError(server, client, [("where", "UseTyp = 'Residential'"), ("f", "json")])
            #expect(unknown.first?.contains("UseType") == true)  // the suggestion
            let type = try await expectError(server, client, [("where", "Roll_LandValue = 'a lot'"), ("f", "json")])
            #expect(!type.isEmpty)
            let injection = try await expectError(server, client, [("where", "1=1; DROP TABLE parcels"), ("f", "json")])
            #expect(!injection.isEmpty)
            let response = try await client.get(server.queryURL(.parcels), [("where", "UseType = 'Residential"), ("f", "json")])
            #expect(try response.jsonObject().error?["message"] as? String == "Unable to complete operation.")
        }
    }

    @Test("bad parameters of every kind are errors, never crashes")
    func badParameters() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let cases: [[(String, String)]] = [
                [("f", "json")],  // no where, geometry or objectIds
                [("where", "1=1"), ("outFields", "NoSuchField"), ("f", "json")],
                [("geometry", "1,2,3"), ("f", "json")],
                [("geometry", "{\"rings\":"), ("geometryType", "esriGeometryPolygon"), ("f", "json")],
                [("geometry", "{\"x\":1,\"y\":2,\"spatialReference\":{\"wkid\":2229}}"), ("geometryType", "esriGeometryPoint"), ("f", "json")],
                [("geometry", "a,b,c,d"), ("f", "json")],
                [("geometry", "0,0,1,1"), ("geometryType", "esriGeometryCircle"), ("f", "json")],
                [("where", "1=1"), ("objectIds", "1,x"), ("f", "json")],
                [("where", "1=1"), ("resultOffset", "-1"), ("f", "json")],
                [("where", "1=1"), ("resultRecordCount", "0"), ("f", "json")],
                [("where", "1=1"), ("returnIdsOnly", "maybe"), ("f", "json")],
                [("where", "1=1"), ("orderByFields", "Nope DESC"), ("f", "json")],
                [("where", "1=1"), ("orderByFields", "APN SIDEWAYS"), ("f", "json")],
                [("where", "1=1"), ("outSR", "2229"), ("f", "json")],
                [("where", "1=1"), ("outSR", "{\"wkt\":\"PROJCS[...]\"}"), ("f", "json")],
                [("where", "1=1"), ("outStatistics", "[{]"), ("f", "json")],
                [("where", "1=1"), ("f", "kml")],
                [("where", String(repeating: "(", count: 5_000) + "1=1"), ("f", "json")],
            ]
            for parameters in cases {
                let details = try await expectError(server, client, parameters)
                #expect(!details.isEmpty, "\(parameters)")
            }
            #expect(server.statistics.errorResponses == cases.count)
            // Still serving.
            let count = try await client.query(server, .parcels, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(count.countResult == server.dataset.parcelCount)
        }
    }

    @Test("a layer published without the Query capability refuses queries")
    func capabilityOverride() async throws {
        var configuration = SampleServerConfiguration()
        configuration.capabilityOverrides = [.parcels: "Map"]
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.parcels), [("f", "json")])
            #expect(metadata["capabilities"] as? String == "Map")
            let details = try await expectError(server, client, [("where", "1=1"), ("f", "json")])
            #expect(details.first?.contains("Query") == true)
            let other = try await client.query(server, .cities, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(other.countResult == server.dataset.featureCount(.cities))
        }
    }

    @Test("methods other than GET and POST get HTTP 405")
    func methods() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let response = try await client.execute(HTTPRequest(method: .delete, url: server.layerURL(.parcels)))
            #expect(response.status == 405)
        }
    }
}
