import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage
import Testing

import EngineExecution
import FeatureService

@testable import ArcGISEngine

/// The per-request shortcuts of the engine, each against what it replaced: query parameters encoded once
/// and extended, and parsed targets passed on instead of URLs parsed again. (The per-host limit's and the
/// metadata cache's own paths are EngineExecution's: Tests/EngineExecutionTests.)
@Suite("Engine fast paths keep their results")
struct ExecutionFastPathTests {
    static let texts = [
        "", "f", "json", "where", "UseType = 'Residential'", "1=1", "a+b", "a&b=c", "100%", "%41", "Zürich", "😀",
        "e\u{301}", "\r\n", "~*-._", #"{"xmin":-13223962,"spatialReference":{"wkid":3857}}"#, "OBJECTID ASC", " ",
    ]

    static func randomText(_ random: inout SplitMix64) -> String {
        (0..<Int(random.next() % 4)).map { _ in texts[Int(random.next() % UInt64(texts.count))] }.joined()
    }

    @Test("Encoded parameters equal the reference encoding of their fields, however they were built")
    func encodingMatchesReference() {
        var random = SplitMix64(seed: 21)
        for _ in 0..<3_000 {
            let fields = (0..<Int(random.next() % 5)).map { _ in (Self.randomText(&random), Self.randomText(&random)) }
            var parameters = QueryParameters(fields: fields)
            #expect(parameters.encoded == ReferenceURLs.encoded(fields))
            let extra = (0..<Int(random.next() % 3)).map { _ in (Self.randomText(&random), Self.randomText(&random)) }
            let added = parameters.adding(extra)
            #expect(added.encoded == ReferenceURLs.encoded(fields + extra))
            // The base is unchanged by what was derived from it.
            #expect(parameters.encoded == ReferenceURLs.encoded(fields))
            #expect(QueryParameters.idsOnly(parameters).encoded == ReferenceURLs.encoded(fields + [("returnIdsOnly", "true")]))
            #expect(QueryParameters.countOnly(parameters).encoded == ReferenceURLs.encoded(fields + [("returnCountOnly", "true")]))
            parameters.append("k", "v w")
            #expect(parameters.encoded == ReferenceURLs.encoded(fields + [("k", "v w")]))
            #expect(parameters.url(endpoint: "http://h/a/FeatureServer/0/query") == "http://h/a/FeatureServer/0/query?" + parameters.encoded)
        }
    }

    static let layer = LayerMetadata(
        url: "http://h/arcgis/rest/services/LA/FeatureServer/0", id: 0, name: "Parcels", type: "Feature Layer",
        geometryType: "esriGeometryPolygon", objectIdField: "OBJECTID",
        fields: [LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "UseType", type: .string)],
        maxRecordCount: 1000, capabilities: ["Query"], supportsPagination: true, supportedQueryFormats: ["JSON"],
        supportsStatistics: true, useStandardizedQueries: true, spatialReference: SpatialReference(wkid: 3857))

    @Test("The parameters of a query encode as their fields did, for every request built from them")
    func queryParametersMatchReference() throws {
        let envelope = Envelope(xmin: -13_223_962, ymin: 4_030_690, xmax: -13_223_762, ymax: 4_030_890, spatialReference: SpatialReference(wkid: 3857))
        let query = ServiceQuery(
            whereClause: try WhereClause("UseType = 'Residential'"), geometry: .envelope(envelope), outFields: ["UseType"],
            outSpatialReference: SpatialReference(wkid: 4326), result: .features)
        let base = try QueryParameters.base(query, layer: Self.layer)
        let baseFields = [
            ("f", "json"), ("where", "UseType = 'Residential'"),
            ("geometry", #"{"xmin":-13223962,"ymin":4030690,"xmax":-13223762,"ymax":4030890,"spatialReference":{"wkid":3857}}"#),
            ("geometryType", "esriGeometryEnvelope"), ("inSR", "3857"), ("spatialRel", "esriSpatialRelIntersects"),
        ]
        #expect(base.encoded == ReferenceURLs.encoded(baseFields))
        #expect(QueryParameters.idsOnly(base).encoded == ReferenceURLs.encoded(baseFields + [("returnIdsOnly", "true")]))
        #expect(QueryParameters.countOnly(base).encoded == ReferenceURLs.encoded(baseFields + [("returnCountOnly", "true")]))
        let outputFields = [("outFields", "UseType,OBJECTID"), ("returnGeometry", "false"), ("outSR", "4326")]
        let features = base.withFeatureOutput(query, layer: Self.layer)
        #expect(features.encoded == ReferenceURLs.encoded(baseFields + outputFields))
        let page = QueryParameters.page(features, objectIdField: "OBJECTID", offset: 2000, count: 1000)
        #expect(page.encoded == ReferenceURLs.encoded(
            baseFields + outputFields + [("orderByFields", "OBJECTID ASC"), ("resultOffset", "2000"), ("resultRecordCount", "1000")]))
        let byIds = QueryParameters.objectIds([3, 1, 2], query: query, layer: Self.layer)
        #expect(byIds.encoded == ReferenceURLs.encoded([("f", "json"), ("objectIds", "3,1,2")] + outputFields))
    }

    @Test("Short parameters go as a GET, long ones as the form POST HTTPRequest.formPost builds")
    func getOrPost() {
        var random = SplitMix64(seed: 23)
        let endpoint = "http://h/arcgis/rest/services/LA/FeatureServer/0/query"
        for _ in 0..<500 {
            let fields = (0..<Int(random.next() % 6)).map { _ in (Self.randomText(&random), Self.randomText(&random)) }
            let parameters = QueryParameters(fields: fields)
            let limit = Int(random.next() % 300)
            let request = parameters.request(endpoint: endpoint, maxGETURLLength: limit)
            let query = ReferenceURLs.encoded(fields)
            if endpoint.utf8.count + 1 + query.utf8.count <= limit {
                #expect(request == HTTPRequest(method: .get, url: endpoint + "?" + query))
            } else {
                #expect(request == HTTPRequest.formPost(url: endpoint, fields: fields))
            }
        }
    }

    @Test("Targets' layers are parsed once and name the same URLs; a negative layer id fails as its URL does")
    func targetsKeepTheirOutcomes() async throws {
        let client = try HTTPClient(logger: ArcGISTestSupport.logger)
        let engine = ArcGISEngine(httpClient: client, logger: ArcGISTestSupport.logger)
        let service = "HTTP://Example.COM:9/arcgis/rest/services/USA/MapServer/?token=secret"
        #expect(try await engine.layers(of: ArcGISTarget(url: service, layers: [2, 0])).map(\.url) == [
            "http://example.com:9/arcgis/rest/services/USA/MapServer/2",
            "http://example.com:9/arcgis/rest/services/USA/MapServer/0",
        ])
        #expect(try await engine.layers(of: ArcGISTarget(url: "http://h/a/FeatureServer/3#x")).map(\.url) == ["http://h/a/FeatureServer/3"])

        for targets in [[ArcGISTarget(url: service, layers: [-1])], [ArcGISTarget(url: service, layers: [-1]), ArcGISTarget(url: "ftp://x")]] {
            let outcomes = await engine.query(targets, ServiceQuery())
            let negative = "http://example.com:9/arcgis/rest/services/USA/MapServer/-1"
            var expected: FeatureServiceError?
            do throws(FeatureServiceError) { _ = try ReferenceURLs.layerURL(negative) } catch { expected = error }
            #expect(outcomes.first?.url == negative)
            #expect(outcomes.first?.failure == expected)
            #expect(outcomes.first?.failure?.message == "\(negative): '-1' is not a layer id")
            if targets.count == 2 {
                #expect(outcomes.count == 2)
                #expect(outcomes.last?.failure?.code == .invalidURL)
                #expect(outcomes.last?.url == "ftp://x")
            }
        }
        let bad = await engine.query([ArcGISTarget(url: "http://h/a/ImageServer/0")], ServiceQuery())
        #expect(bad.count == 1)
        #expect(bad.first?.failure?.code == .invalidURL)
        await client.shutdown()
    }
}

extension QueryParameters {
    /// `name=value&...`, form-encoded, as text.
    var encoded: String { String(decoding: encodedBytes, as: UTF8.self) }
}
