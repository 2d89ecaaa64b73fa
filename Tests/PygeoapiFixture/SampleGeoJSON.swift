import CurlHTTP
import Foundation
import Logging
import SampleFeatureServer

/// Deterministic GeoJSON FeatureCollections of the project's sample datasets, fetched from the ArcGIS face
/// (`f=geojson`) of an in-process ``SampleFeatureServer``: the same features, attributes and OBJECTIDs the
/// ArcGIS tests see, so OGC and ArcGIS answers can be compared.
enum SampleGeoJSON {
    /// Every feature of each layer (or its first `firstFeatures`: OBJECTIDs 1…n), in OBJECTID order, with the
    /// feature `id` set to the integer OBJECTID; one FeatureCollection (serialized) per layer. Pages by
    /// `resultOffset` (1,000 per request).
    static func featureCollections(
        _ layers: [SampleLayer], dataset: SampleDataset, firstFeatures: Int? = nil
    ) async throws -> [SampleLayer: Data] {
        try await withSampleServer(dataset) { server, client in
            var collections: [SampleLayer: Data] = [:]
            for layer in layers {
                let count = dataset.featureCount(layer)
                let features = try await fetchAll(
                    layer, server: server, client: client, expected: min(count, firstFeatures ?? count),
                    where: firstFeatures.map { "OBJECTID <= \($0)" } ?? "1=1")
                collections[layer] = try JSONSerialization.data(
                    withJSONObject: ["type": "FeatureCollection", "features": features] as [String: Any], options: [.sortedKeys])
            }
            return collections
        }
    }

    /// Runs `body` with a sample server over `dataset` and an HTTP client, both shut down after it, whatever it
    /// throws: how the fixtures read the sample data through the server's own `/query`.
    static func withSampleServer<T>(
        _ dataset: SampleDataset, _ body: (SampleFeatureServer, HTTPClient) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "pygeoapi-fixture") { _ in SwiftLogNoOpLogHandler() }
        let server = try await SampleFeatureServer.start(dataset: dataset, logger: logger)
        let client: HTTPClient
        do {
            client = try HTTPClient(logger: logger)
        } catch {
            await server.shutdown()
            throw error
        }
        do {
            let result = try await body(server, client)
            await client.shutdown()
            await server.shutdown()
            return result
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
    }

    private static func fetchAll(
        _ layer: SampleLayer, server: SampleFeatureServer, client: HTTPClient, expected: Int, where clause: String
    ) async throws -> [Any] {
        let pageSize = 1_000
        var features: [Any] = []
        while features.count < expected {
            let parameters = [
                ("where", clause), ("outFields", "*"), ("orderByFields", "OBJECTID"), ("resultOffset", String(features.count)),
                ("resultRecordCount", String(pageSize)), ("f", "geojson"),
            ]
            let query = parameters.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
            let response = try await client.execute(HTTPRequest(url: server.queryURL(layer) + "?" + query))
            guard response.status == 200,
                let page = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let pageFeatures = page["features"] as? [[String: Any]], !pageFeatures.isEmpty
            else {
                throw FixtureFailure("sample server \(layer.rawValue): HTTP \(response.status) \(response.bodyString.prefix(300))")
            }
            for var feature in pageFeatures {
                guard let properties = feature["properties"] as? [String: Any], let objectID = properties["OBJECTID"] as? Int else {
                    throw FixtureFailure("sample server \(layer.rawValue): a feature without an OBJECTID")
                }
                feature["id"] = objectID
                features.append(feature)
            }
        }
        return features
    }
}
