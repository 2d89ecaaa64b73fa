import ArcGISEngine
import CurlHTTP
import EngineTestSupport
import FeatureQuerySupport
import FeatureService
import HTTPTestServer
import Hummingbird
import Testing

/// A stored layer keeps the inline result's guarantees: a feature that paging repeats is stored once, and one
/// that paging missed is fetched again by id (repair) and stored.
@Suite("Stored results: repeats and repairs")
struct StoredResultRepairTests {
    /// A paginating layer of `count` points whose pages repeat the previous page's last id and leave out `dropped`
    /// (the services esridump #39/#97 describe); ids-only and objectIds queries answer honestly.
    struct SloppyLayer: Sendable {
        let count: Int
        let dropped: Int

        func features(_ ids: [Int]) -> Response {
            let features = ids.map { #"{"attributes":{"OID":\#($0)},"geometry":{"x":\#($0),"y":1}}"# }.joined(separator: ",")
            return .json(#"{"objectIdFieldName":"OID","geometryType":"esriGeometryPoint","spatialReference":{"wkid":4326},"#
                + #""features":[\#(features)],"exceededTransferLimit":false}"#)
        }

        func handle(_ request: Request) async throws -> Response {
            guard request.uri.path.hasSuffix("/query") else {
                return .json(#"{"id":0,"name":"Sloppy","type":"Feature Layer","geometryType":"esriGeometryPoint","#
                    + #""objectIdField":"OID","fields":[{"name":"OID","type":"esriFieldTypeOID"}],"maxRecordCount":500,"#
                    + #""capabilities":"Query","advancedQueryCapabilities":{"supportsPagination":true}}"#)
            }
            let parameters = try await request.parameters()
            if parameters.value("returnCountOnly") == "true" { return .json(#"{"count":\#(count)}"#) }
            if parameters.value("returnIdsOnly") == "true" {
                return .json(#"{"objectIdFieldName":"OID","objectIds":[\#((1...count).map(String.init).joined(separator: ","))]}"#)
            }
            if let list = parameters.value("objectIds") {
                return features(list.split(separator: ",").compactMap { Int($0) })
            }
            let offset = Int(parameters.value("resultOffset") ?? "0") ?? 0
            let size = Int(parameters.value("resultRecordCount") ?? "500") ?? 500
            var ids = offset < count ? Array((offset + 1)...min(count, offset + size)) : []
            ids.removeAll { $0 == dropped }
            if offset > 0, offset <= count { ids.insert(offset, at: 0) }
            return features(ids)
        }
    }

    @Test func repeatedFeaturesAreStoredOnceAndMissedOnesAreRepaired() async throws {
        let layer = SloppyLayer(count: 2_000, dropped: 777)
        try await TestHTTPServer.withServer(logger: ArcGISTestSupport.logger, handler: { try await layer.handle($0) }) { server in
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let engine = ArcGISEngine(
                httpClient: client, configuration: ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries),
                logger: ArcGISTestSupport.logger)
            let url = server.baseURL + "/arcgis/rest/services/Sloppy/FeatureServer/0"
            let inline = await StoredResultTests.outcome(engine, url, ServiceQuery(result: .features), store: nil)
            let store = RecordingResultStore(delivery: .above(thresholdBytes: 10_000))
            let stored = await StoredResultTests.outcome(engine, url, ServiceQuery(result: .features), store: store)
            await client.shutdown()
            let inlineResult = try #require(inline.success, "\(String(describing: inline.failure))")
            let result = try #require(stored.success, "\(String(describing: stored.failure))")
            #expect(ArcGISTestSupport.ids(inlineResult) == Array(1...2_000))
            guard case .stored(let location) = result.selection else { Issue.record("not stored: \(result.selection)"); return }
            let ids = try await StoredResultTests.storedFeatureIDs(try #require(store.writers.first))
            #expect(ids.count == 2_000)
            #expect(ids.sorted() == Array(1...2_000))
            #expect(location.count == 2_000)
            #expect(result.isComplete == inlineResult.isComplete)
            #expect(result.isComplete)
        }
    }
}
