import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Services directory and metadata")
struct MetadataTests {
    @Test("the services directory lists the three services with their types")
    func directory() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            #expect(server.baseURL.hasSuffix("/arcgis/rest/services"))
            let directory = try await client.json(server.baseURL, [("f", "json")])
            #expect(directory["folders"] as? [String] == [])
            let services = (directory["services"] as? [[String: String]] ?? []).map { "\($0["name"] ?? "")/\($0["type"] ?? "")" }
            #expect(services == SampleService.allCases.map(\.path))
            let info = try await client.json(server.rootURL + "/arcgis/rest/info", [("f", "json")])
            #expect((info["authInfo"] as? [String: Any])?["isTokenBasedSecurity"] as? Bool == false)
        }
    }

    @Test("service metadata lists layers with ids, names, parents and visibility", arguments: SampleService.allCases)
    func service(_ service: SampleService) async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let metadata = try await client.json(server.serviceURL(service), [("f", "json")])
            let layers = metadata["layers"] as? [[String: Any]] ?? []
            #expect(layers.compactMap { ($0["id"] as? NSNumber)?.intValue } == service.layers.map(\.layerID))
            for layer in layers {
                #expect((layer["parentLayerId"] as? NSNumber)?.intValue == -1)
                #expect(layer["defaultVisibility"] as? Bool == true)
                #expect(layer["subLayerIds"] is NSNull)
                #expect(layer["minScale"] != nil && layer["maxScale"] != nil && layer["name"] is String)
            }
            let expectedMax = service == .laCountyParcels ? 2000 : 1000
            #expect(metadata.int("maxRecordCount") == expectedMax)
            #expect((metadata["capabilities"] as? String)?.contains("Query") == true)
            let reference = metadata["spatialReference"] as? [String: Any]
            #expect((reference?["wkid"] as? NSNumber)?.intValue == (service == .usa ? 4326 : 102100))
            if service == .laCountyParcels {
                #expect((reference?["latestWkid"] as? NSNumber)?.intValue == 3857)
                let all = try await client.json(server.serviceURL(service) + "/layers", [("f", "json")])
                #expect((all["layers"] as? [[String: Any]])?.first?["objectIdField"] as? String == "OBJECTID")
            }
        }
    }

    @Test("layer metadata of every feature layer", arguments: SampleLayer.allCases.filter { $0 != .elevation && !$0.isTable })
    func layer(_ layer: SampleLayer) async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(layer), [("f", "json")])
            #expect(metadata["type"] as? String == "Feature Layer")
            #expect(metadata.int("id") == layer.layerID)
            #expect(metadata["objectIdField"] as? String == "OBJECTID")
            #expect((metadata["capabilities"] as? String)?.contains("Query") == true)
            let fields = metadata["fields"] as? [[String: Any]] ?? []
            #expect(fields.first?["type"] as? String == "esriFieldTypeOID")
            #expect(fields.map { $0["name"] as? String ?? "" } == server.dataset.fieldNames(layer))
            for field in fields where field["type"] as? String == "esriFieldTypeString" {
                #expect((field["length"] as? NSNumber)?.intValue ?? 0 > 0)
                #expect(field["alias"] is String)
            }
            let extent = metadata["extent"] as? [String: Any]
            #expect(extent?["spatialReference"] is [String: Any])
            let geometryType = metadata["geometryType"] as? String
            switch layer {
            case .cities, .parcelSales: #expect(geometryType == "esriGeometryPoint")
            case .highways: #expect(geometryType == "esriGeometryPolyline")
            default: #expect(geometryType == "esriGeometryPolygon")
            }
            if layer == .parcels || layer.service == .usa {
                #expect(fields.contains { $0["name"] as? String == (layer == .parcels ? "Roll_LandValue" : "POP2000") })
            }
            let advanced = metadata["advancedQueryCapabilities"] as? [String: Any]
            if layer == .legacyParcels {
                #expect(advanced == nil)
                #expect(metadata.int("maxRecordCount") == 1000)
                #expect(metadata["currentVersion"] as? NSNumber == 10)
            } else {
                #expect(advanced?["supportsPagination"] as? Bool == true)
                #expect(advanced?["supportsOrderBy"] as? Bool == true)
                #expect(metadata["useStandardizedQueries"] as? Bool == true)
                #expect(metadata["supportsStatistics"] as? Bool == true)
                #expect(metadata["supportedQueryFormats"] as? String == "JSON, geoJSON")
                #expect(metadata.int("maxRecordCount") == (layer == .parcels ? 2000 : 1000))
            }
        }
    }

    @Test("the raster layer is published without fields or the Query capability, and refuses queries")
    func rasterLayer() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.elevation), [("f", "json")])
            #expect(metadata["type"] as? String == "Raster Layer")
            #expect(metadata["capabilities"] as? String == "Map")
            #expect(metadata["fields"] is NSNull)
            let answer = try await client.query(server, .elevation, [("where", "1=1"), ("f", "json")])
            #expect(answer.errorCode == 400)
        }
    }

    @Test("f=pjson is the same JSON, indented")
    func prettyJSON() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let compact = try await client.get(server.layerURL(.parcels), [("f", "json")])
            let pretty = try await client.get(server.layerURL(.parcels), [("f", "pjson")])
            #expect(pretty.bodyString.contains("\n  \"currentVersion\" : 11.2"))
            #expect(NSDictionary(dictionary: try compact.jsonObject()) == NSDictionary(dictionary: try pretty.jsonObject()))
            let query = try await client.get(server.queryURL(.cities), [("where", "1=1"), ("resultRecordCount", "3"), ("f", "pjson")])
            #expect(try query.jsonObject().features.count == 3)
        }
    }

    @Test("unknown services and layers get ArcGIS 404 bodies; paths outside /arcgis/rest get HTTP 404")
    func notFound() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let service = try await client.json(server.baseURL + "/Nope/FeatureServer", [("f", "json")])
            #expect(service.errorCode == 404)
            let layer = try await client.json(server.layerURL(.parcels).dropLast() + "7", [("f", "json")])
            #expect(layer.errorCode == 404)
            #expect(layer.errorDetails.first?.contains("layerId: 7") == true)
            let query = try await client.json(server.baseURL + "/USA/MapServer/9/query", [("where", "1=1"), ("f", "json")])
            #expect(query.errorCode == 404)
            let invalid = try await client.json(server.layerURL(.parcels) + "/nonsense", [("f", "json")])
            #expect(invalid.errorCode == 400)
            let outside = try await client.get(server.rootURL + "/index.html")
            #expect(outside.status == 404)
            let html = try await client.get(server.layerURL(.parcels))
            #expect(html.status == 200 && html.bodyString.contains("<html>"))
            #expect(server.statistics.errorResponses == 4)
        }
    }

    @Test("service and layer names are matched ignoring case, as ArcGIS does")
    func caseInsensitivePaths() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let metadata = try await client.json(server.baseURL + "/usa/mapserver/2", [("f", "json")])
            #expect(metadata["name"] as? String == "States")
        }
    }
}
