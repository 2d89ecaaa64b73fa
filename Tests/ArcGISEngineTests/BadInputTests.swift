import ArcGISEngine
import CurlHTTP
import HTTPTestServer
import QueryLanguage
import SampleFeatureServer
import Testing
import FeatureService
import EngineExecution
import HummingbirdCore

@Suite("Bad input and bad services give typed errors naming the layer")
struct BadInputTests {
    @Test func aClauseNamingAnUnknownFieldIsRefusedBeforeAnyQuery() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            do {
                _ = try await engine.query(layer: server.layerURL(.parcels), ServiceQuery(whereClause: try WhereClause("Zoning = 'R1'")))
                Issue.record("the query should have failed")
            } catch let error as FeatureServiceError {
                #expect(error.code == .invalidQuery)
                #expect(error.message.contains(server.layerURL(.parcels)))
                #expect(error.message.contains("Zoning"))
            }
            do {
                _ = try await engine.query(layer: server.layerURL(.parcels), ServiceQuery(whereClause: try WhereClause("UseType > 5")))
                Issue.record("a type mismatch should have failed")
            } catch let error as FeatureServiceError {
                #expect(error.code == .invalidQuery)
            }
            do {
                _ = try await engine.query(layer: server.layerURL(.parcels), ServiceQuery(outFields: ["APN", "Nope"], result: .features))
                Issue.record("an unknown outField should have failed")
            } catch let error as FeatureServiceError {
                #expect(error.code == .invalidQuery)
                #expect(error.message.contains("Nope"))
            }
            #expect(server.statistics.queries(.parcels) == 0)
        }
    }

    @Test func aLayerWithoutQueryCapabilityIsRefused() async throws {
        try await ArcGISTestSupport.withEngine(capabilityOverrides: [.states: "Map"]) { server, engine in
            await #expect { try await engine.query(layer: server.layerURL(.states), ServiceQuery()) } throws: {
                guard let error = $0 as? FeatureServiceError else { return false }
                return error.code == .unsupportedLayer && error.message.contains(server.layerURL(.states))
            }
            await #expect { try await engine.query(layer: server.layerURL(.elevation), ServiceQuery()) } throws: {
                ($0 as? FeatureServiceError)?.code == .unsupportedLayer
            }
            #expect(server.statistics.queries(.states) == 0)
        }
    }

    @Test func unknownLayersAndBadURLs() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            await #expect { try await engine.query(layer: server.serviceURL(.usa) + "/9", ServiceQuery()) } throws: {
                ($0 as? FeatureServiceError)?.code == .notFound
            }
            await #expect { try await engine.query(layer: server.baseURL + "/USA/ImageServer/0", ServiceQuery()) } throws: {
                ($0 as? FeatureServiceError)?.code == .invalidURL
            }
            await #expect { try await engine.query(layer: server.serviceURL(.usa), ServiceQuery()) } throws: {
                ($0 as? FeatureServiceError)?.code == .invalidURL
            }
        }
    }

    /// A layer served by a fake server on loopback that misbehaves in one way per path.
    static func withBrokenService(_ body: (String, ArcGISEngine) async throws -> Void) async throws {
        let metadata = #"{"id":0,"name":"Broken","type":"Feature Layer","geometryType":"esriGeometryPoint","objectIdField":"OID","#
            + #""fields":[{"name":"OID","type":"esriFieldTypeOID"},{"name":"NAME","type":"esriFieldTypeString"}],"#
            + #""maxRecordCount":1000,"capabilities":"Query","advancedQueryCapabilities":{"supportsPagination":true}}"#
        try await TestHTTPServer.withServer(logger: ArcGISTestSupport.logger, handler: { request in
            let service = request.uri.path.split(separator: "/").dropFirst(3).first.map(String.init) ?? ""
            if !request.uri.path.hasSuffix("/query") {
                return service == "HTML" ? .text("<html><title>Sign in</title></html>", contentType: "text/html") : .json(metadata)
            }
            switch service {
            case "Empty": return .json("")
            case "Shape": return .json(#"{"count":"many","features":{}}"#)
            case "MissingOID":
                if try await request.parameters().value("returnCountOnly") == "true" { return .json(#"{"count":2}"#) }
                return .json(#"{"features":[{"attributes":{"NAME":"a"}},{"attributes":{"NAME":"b"}}]}"#)
            default: return .json("{}")
            }
        }) { server in
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let engine = ArcGISEngine(
                httpClient: client, configuration: ArcGISEngineConfiguration(retry: .none), logger: ArcGISTestSupport.logger)
            do {
                try await body(server.baseURL + "/arcgis/rest/services", engine)
            } catch {
                Issue.record(error)
            }
            await client.shutdown()
        }
    }

    @Test(arguments: ["HTML", "Empty", "Shape", "MissingOID"])
    func brokenServicesGiveTypedErrors(_ service: String) async throws {
        try await Self.withBrokenService { base, engine in
            let url = base + "/\(service)/FeatureServer/0"
            do {
                _ = try await engine.query(layer: url, ServiceQuery(result: service == "MissingOID" ? .features : .count))
                Issue.record("\(service) should have failed")
            } catch let error as FeatureServiceError {
                let expected: FeatureServiceError.Code = service == "MissingOID" ? .missingObjectID : .malformedResponse
                #expect(error.code == expected, "\(service): \(error)")
                #expect(error.layer == url)
                #expect(error.message.contains(url), "\(error.message)")
            }
        }
    }
}
