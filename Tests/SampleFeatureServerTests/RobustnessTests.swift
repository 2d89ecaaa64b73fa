import CurlHTTP
import FeatureQuerySupport
import Foundation
import SampleFeatureServer
import Testing

@Suite("Robustness")
struct RobustnessTests {
    /// Values that have broken servers: empty, huge, negative, non-numeric, half JSON, control characters.
    static let nasty = [
        "", " ", "-1", "0", "1e308", "-9223372036854775808", "99999999999999999999999", "NaN", "Infinity", "null",
        "true", "{", "{\"x\":", "[[[", "{\"xmin\":1e400,\"ymin\":0,\"xmax\":1,\"ymax\":1}", "{\"rings\":[[[0,0],[1,1]]]}",
        "{\"x\":-1e308,\"y\":1e308,\"spatialReference\":{\"wkid\":4326}}", "'; DROP TABLE x; --", "%00", "\u{0}\u{1}\u{7F}",
        "UseType = 'Residential' OR", "OBJECTID IN (" + String(repeating: "1,", count: 3_000) + "1)",
        String(repeating: "x", count: 20_000), "esriGeometryPolygon", "esriSpatialRelWithin", "*", "OBJECTID DESC,,",
        "1,2,3,4,5", "-180,-90,180,90", "102100", "{\"wkid\":3857}", "{\"wkt\":\"GEOGCS\"}",
    ]
    static let names = [
        "where", "geometry", "geometryType", "inSR", "spatialRel", "outFields", "returnGeometry", "returnIdsOnly",
        "returnCountOnly", "returnExtentOnly", "resultOffset", "resultRecordCount", "orderByFields", "outSR", "objectIds",
        "outStatistics", "f",
    ]

    @Test("random combinations of bad parameter values always get an answer, never a crash")
    func randomParameters() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            var generator = SplitMix64(seed: 20_240_601)
            for round in 0..<250 {
                var parameters: [(String, String)] = [("where", "1=1")]
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let name = Self.names[Int(generator.next() % UInt64(Self.names.count))]
                    let value = Self.nasty[Int(generator.next() % UInt64(Self.nasty.count))]
                    parameters.append((name, value))
                }
                let layer = SampleLayer.allCases[round % SampleLayer.allCases.count]
                let useGet = round % 2 == 0
                let response = useGet
                    ? try await client.get(server.queryURL(layer), parameters)
                    : try await client.post(server.queryURL(layer), parameters)
                #expect(response.status == 200, "\(parameters)")
            }
            let count = try await client.query(server, .parcels, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(count.countResult == server.dataset.parcelCount)
        }
    }
}

