import QueryLanguage
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// The decoder's cache of where clauses and target URLs by text (``DecodedTextCache``): a text read again gives
/// the same request, a refused text is refused again with the same error, and the cache stays bounded.
@Suite("Contract: where clauses and target URLs read before")
struct ContractDecodedTextCacheTests {
    static func message(where clause: String, url: String, id: String = "r-1", name: String = "name") -> [UInt8] {
        Array(#"""
        {"requestId":"\#(id)","targets":[{"type":"arcgis","url":"\#(url)"}],"query":{"where":"\#(clause)",
        "extent":{"xmin":-118.3,"ymin":34.0,"xmax":-118.2,"ymax":34.1,"spatialReference":{"wkid":4326}},"result":"count",
        "outFields":["\#(name)"]}}
        """#.utf8)
    }

    static func query(_ decoded: IncomingMessage) -> QueryRequest? {
        if case .query(let request) = decoded { return request }
        return nil
    }

    static func rejection(_ decoded: IncomingMessage) -> RejectedRequest? {
        if case .rejected(let rejection) = decoded { return rejection }
        return nil
    }

    @Test("a clause and a URL read again decode to the same request, layer URLs and service URLs apart")
    func sameRequestAgain() throws {
        let decoder = try ContractSupport.decoder()
        let layer = "https://gis.example.com/arcgis/rest/services/Parcels/FeatureServer/0/"
        let first = try #require(Self.query(decoder.decode(Self.message(where: "UseType = 'Residential'", url: layer), key: nil, receivedAt: 1)))
        let second = try #require(Self.query(decoder.decode(Self.message(where: "UseType = 'Residential'", url: layer), key: nil, receivedAt: 1)))
        #expect(first.query == second.query)
        #expect(first.targets == second.targets)
        #expect(first.targets == [.arcgis(url: "https://gis.example.com/arcgis/rest/services/Parcels/FeatureServer/0", layers: nil)])
        #expect(decoder.cache.clause("UseType = 'Residential'") != nil)
        #expect(decoder.cache.arcGISURL(layer)?.isLayer == true)

        // A cached URL still answers whether it names a layer: `layers` on a layer URL is refused.
        let withLayers = Array(#"""
        {"requestId":"r-2","targets":[{"type":"arcgis","url":"\#(layer)","layers":[1]}],"query":{"result":"count"}}
        """#.utf8)
        let refused = try #require(Self.rejection(decoder.decode(withLayers, key: nil, receivedAt: 1)))
        #expect(refused.message.contains("is a layer URL"))
    }

    @Test("a refused clause or URL is refused again, with the same error, and not kept")
    func refusedAgain() throws {
        let decoder = try ContractSupport.decoder()
        let badClause = Self.message(where: "UseType = ", url: "https://a.example.com/arcgis/rest/services/P/MapServer")
        let badURL = Self.message(where: "1=1", url: "https://a.example.com/arcgis/rest/services/P/ImageServer")
        for bytes in [badClause, badURL] {
            let first = try #require(Self.rejection(decoder.decode(bytes, key: nil, receivedAt: 1)))
            let second = try #require(Self.rejection(decoder.decode(bytes, key: nil, receivedAt: 1)))
            #expect(first.code == second.code)
            #expect(first.message == second.message)
            #expect(first.details == second.details)
        }
        #expect(decoder.cache.clause("UseType = ") == nil)
        #expect(decoder.cache.arcGISURL("https://a.example.com/arcgis/rest/services/P/ImageServer") == nil)
    }

    @Test("a full cache starts over: it never holds more than its capacity")
    func bounded() throws {
        let cache = DecodedTextCache(capacity: 3)
        let clause = try WhereClause("1=1")
        for index in 0..<10 {
            cache.store(clause: clause, for: "c\(index)")
            cache.store(arcGISURL: (text: "u\(index)", isLayer: false), for: "u\(index)")
        }
        let kept = (0..<10).filter { cache.clause("c\($0)") != nil }
        #expect(kept == [9])  // emptied when the fourth came, and again at the seventh and the tenth
        #expect((0..<10).filter { cache.arcGISURL("u\($0)") != nil } == [9])
        cache.store(clause: clause, for: "again")
        #expect(cache.clause("c9") != nil && cache.clause("again") != nil)
    }
}
