import FeatureService
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// Contract 1.1 on arrival: `ogc` targets are accepted and reach the seam as the engine expects them,
/// `result: catalog` browses landing pages and services, and requests that differ only in result kind or
/// in a collection do not share a run. The rejections (a collection missing outside a catalog, a filter in
/// a catalog, a malformed credential name) are cases of ``ContractRejectionTests``.
@Suite struct ContractOGCDecodingTests {
    static let landing = "https://ogc.example.org/api"

    static func decode(_ json: String, key: String? = nil) throws -> IncomingMessage {
        try ContractSupport.decoder().decode(Array(json.utf8), key: key.map { Array($0.utf8) }, receivedAt: 1_000)
    }

    static func query(_ json: String) throws -> QueryRequest {
        let message = try decode(json)
        guard case .query(let request) = message else { throw ContractTestFailure("not a query: \(message)") }
        return request
    }

    @Test func anOGCCollectionIsAccepted() throws {
        let request = try Self.query(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)/","collection":"AgricultureSrf"}],"#
                + #""query":{"where":"F_CODE = 'AL020'","maxFeatures":1000,"result":"features"}}"#)
        #expect(request.targets == [.ogc(url: Self.landing, collection: "AgricultureSrf")])
        #expect(request.serviceTargets == [ServiceTarget(kind: .ogc, url: Self.landing, layers: ["AgricultureSrf"])])
        #expect(request.query.result == .features)
        #expect(request.query.serviceQuery.result == .features)
        #expect(request.query.maxFeatures == 1000)
    }

    @Test func aCatalogOfALandingPageHasNoLayers() throws {
        let request = try Self.query(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)"}],"query":{"result":"catalog"}}"#)
        #expect(request.targets == [.ogc(url: Self.landing, collection: nil)])
        #expect(request.serviceTargets == [ServiceTarget(kind: .ogc, url: Self.landing, layers: nil)])
        #expect(request.query.result == .catalog)
        #expect(request.query.serviceQuery.result == .catalog)
        #expect(request.query.serviceQuery.whereClause == nil && request.query.serviceQuery.geometry == nil)
    }

    @Test func aCatalogMayNameOneCollectionAndArcGISServices() throws {
        let request = try Self.query(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)","collection":"CulturePnt"},"#
                + #"{"type":"arcgis","url":"https://gis.example.org/arcgis/rest/services/USA/MapServer"},"#
                + #"{"type":"arcgis","url":"https://gis.example.org/arcgis/rest/services/USA/MapServer","layers":[0,2]}],"#
                + #""query":{"result":"catalog"}}"#)
        #expect(request.serviceTargets == [
            ServiceTarget(kind: .ogc, url: Self.landing, layers: ["CulturePnt"]),
            ServiceTarget(kind: .arcgis, url: "https://gis.example.org/arcgis/rest/services/USA/MapServer", layers: nil),
            ServiceTarget(kind: .arcgis, url: "https://gis.example.org/arcgis/rest/services/USA/MapServer", layers: ["0", "2"]),
        ])
    }

    @Test func aLandingPageAndOneOfItsCollectionsAreDistinctTargets() throws {
        let request = try Self.query(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)"},"#
                + #"{"type":"ogc","url":"\#(Self.landing)","collection":"x"}],"query":{"result":"catalog"}}"#)
        #expect(request.targets.count == 2)
        let repeated = try Self.decode(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)"},"#
                + #"{"type":"ogc","url":"\#(Self.landing)/"}],"query":{"result":"catalog"}}"#)
        guard case .rejected(let rejection) = repeated else {
            Issue.record("a repeated landing page was accepted: \(repeated)")
            return
        }
        #expect(rejection.code == .invalidValue)
        #expect(rejection.path == "targets[1]")
    }

    /// The result kind and the collection are part of what a run asks: a catalog does not answer a features
    /// request of the same task, and two collections of one landing page are two queries.
    @Test func sharingTellsResultKindsAndCollectionsApart() throws {
        func request(_ id: String, collection: String, result: QuerySpec.ResultKind) -> QueryRequest {
            QueryRequest(
                requestId: id, taskId: "t", receivedAt: 0, targets: [.ogc(url: Self.landing, collection: collection)],
                query: QuerySpec(result: result))
        }
        #expect(request("a", collection: "x", result: .ids).asksSame(as: request("b", collection: "x", result: .ids)))
        #expect(!request("a", collection: "x", result: .ids).asksSame(as: request("b", collection: "x", result: .catalog)))
        #expect(!request("a", collection: "x", result: .ids).asksSame(as: request("b", collection: "y", result: .ids)))
        let landing = QueryRequest(
            requestId: "c", taskId: "t", receivedAt: 0, targets: [.ogc(url: Self.landing, collection: nil)],
            query: QuerySpec(result: .catalog))
        #expect(!landing.asksSame(as: request("d", collection: "x", result: .catalog)))
    }

    /// Every field of the query but `result` is refused in a catalog request, each at its own path.
    @Test(arguments: [
        #""where":"A = 1""#, #""namedWhere":"government""#, #""extent":{"xmin":0,"ymin":0,"xmax":1,"ymax":1}"#,
        #""geometry":{"type":"Point","coordinates":[0,0]}"#, #""outFields":["A"]"#, #""returnGeometry":false"#,
        #""outSpatialReference":{"wkid":4326}"#, #""maxFeatures":5"#,
    ])
    func aCatalogTakesNoFilterOrOutputOption(_ member: String) throws {
        let message = try Self.decode(
            #"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)"}],"query":{"result":"catalog",\#(member)}}"#)
        guard case .rejected(let rejection) = message else {
            Issue.record("accepted: \(message)")
            return
        }
        let name = String(member.dropFirst().prefix { $0 != "\"" })
        #expect(rejection.code == .invalidValue)
        #expect(rejection.path == "query.\(name)")
    }

    /// A credential whose scope covers the landing page covers the collection: the engine starts there.
    @Test func aCredentialCoveringTheLandingPageIsAccepted() throws {
        let credentials = try FixedCredentials(
            json: CredentialsFolder.file(SampleCredentials.apiKey("daraa-ldproxy", scope: Self.landing, variable: "KEY")))
        let bytes = Array(
            (#"{"requestId":"r","targets":[{"type":"ogc","url":"\#(Self.landing)","collection":"x"}],"query":{},"#
                + #""credential":"daraa-ldproxy"}"#).utf8)
        let message = try ContractSupport.decoder(credentials: .current(credentials)).decode(bytes, key: nil, receivedAt: 0)
        guard case .query(let request) = message else {
            Issue.record("not accepted: \(message)")
            return
        }
        #expect(request.credential == "daraa-ldproxy")
        #expect(request.serviceQuery.credential == "daraa-ldproxy")
    }
}
