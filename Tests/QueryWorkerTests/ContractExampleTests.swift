import ChildProcessFixture
import ArcGISEngine
import FeatureGeometry
import FeatureQuerySupport
import Foundation
import QueryLanguage
import Testing

@testable import QueryWorker
import FeatureService
import WorkerTestSupport
@testable import RequestContract

/// The examples in docs/contract/examples: each satisfies its schema, and the worker reads each request and
/// cancel as the README says.
@Suite struct ContractExampleTests {
    static let receivedAt: Int64 = 1_748_779_200_000  // 2025-06-01T12:00:00Z

    /// Decodes an example, keyed as a producer following the README would key it, by a worker whose
    /// credentials file has the examples' `county-gis`, for the example server's secured services.
    static func decode(_ bytes: [UInt8], credentials: CredentialNames? = nil) throws -> IncomingMessage {
        let root = try ParsedJSON(parsing: bytes)
        var key: String?
        if case .string(let task)? = root["taskId"] { key = task } else if case .string(let id)? = root["requestId"] { key = id }
        let decoder = try ContractSupport.decoder(credentials: credentials ?? .current(try countyCredentials()))
        return decoder.decode(bytes, key: key.map { Array($0.utf8) }, receivedAt: receivedAt)
    }

    static func countyCredentials() throws -> FixedCredentials {
        try FixedCredentials(json: CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: "https://gis.example.org/arcgis/rest/services/Private", variable: "KEY")))
    }

    static func query(_ name: String) throws -> QueryRequest {
        let example = try #require(try ContractSupport.examples(prefix: "request").first { $0.name == name })
        guard case .query(let request) = try decode(example.bytes) else {
            throw ContractTestFailure("\(name) did not decode to a query: \(try decode(example.bytes))")
        }
        return request
    }

    @Test func everyRequestExampleDecodes() throws {
        let examples = try ContractSupport.examples(prefix: "request")
        #expect(examples.count >= 8)
        for example in examples {
            let message = try Self.decode(example.bytes)
            guard case .query = message else {
                Issue.record("\(example.name) decoded to \(message)")
                continue
            }
        }
    }

    /// The credential example names the credential it picked; a worker without it rejects the request.
    @Test func theCredentialExample() throws {
        let request = try Self.query("request-credential.json")
        #expect(request.credential == "county-gis" && request.serviceQuery.credential == "county-gis")
        let example = try #require(try ContractSupport.examples(prefix: "request").first { $0.name == "request-credential.json" })
        guard case .rejected(let rejection) = try Self.decode(example.bytes, credentials: .noCredentialsFile) else {
            Issue.record("a worker without credentials accepted it")
            return
        }
        #expect(rejection.code == .unknownCredential && rejection.path == "credential")
    }

    @Test func everyCancelExampleDecodes() throws {
        let examples = try ContractSupport.examples(prefix: "cancel")
        #expect(!examples.isEmpty)
        for example in examples {
            guard case .cancel(let taskId) = try Self.decode(example.bytes) else {
                Issue.record("\(example.name) is not read as a cancel")
                continue
            }
            #expect(taskId == "map-view-1")
        }
    }

    @Test func minimalRequestGetsTheDefaults() throws {
        let request = try Self.query("request-minimal.json")
        #expect(request.taskId == request.requestId)
        #expect(request.deadline == nil)
        #expect(request.receivedAt == Self.receivedAt)
        #expect(request.query == QuerySpec())
        #expect(request.query.outFields == ["*"])
        #expect(request.query.result == .ids)
        #expect(request.query.spatialRelationship == .intersects)
        #expect(request.serviceTargets.map(\.url) == [
            "https://services3.arcgis.com/GVgbJbqm8hXASVYi/arcgis/rest/services/LA_County_Parcels/FeatureServer/0",
        ])
    }

    @Test func mapExtentRequest() throws {
        let request = try Self.query("request-map-extent.json")
        #expect(request.taskId == "map-view-1")
        #expect(request.deadline == Self.receivedAt + 15_000)
        let extent = try #require(request.query.extent)
        #expect(extent.spatialReference?.wkid == 3857)
        #expect(extent.xmin == -13_228_917 && extent.ymax == 3_998_647)
        guard case .clause(let clause) = request.query.filter else {
            Issue.record("expected a where clause, got \(request.query.filter)")
            return
        }
        #expect(Set(clause.referencedFields) == ["UseType", "Roll_LandValue"])
        #expect(request.query.serviceQuery.geometry == .envelope(extent))
    }

    @Test func namedWhereFeaturesRequest() throws {
        let request = try Self.query("request-named-where-features.json")
        guard case .named(let name, let clause) = request.query.filter else {
            Issue.record("expected a named query, got \(request.query.filter)")
            return
        }
        #expect(name == "government")
        #expect(clause == (try WhereClause("UseType = 'Government'")))
        #expect(request.deadline == RFC3339.milliseconds(from: "2025-06-01T12:05:00Z"))
        #expect(request.deadline == Self.receivedAt + 300_000)
        #expect(request.query.extent?.spatialReference == .wgs84)
        #expect(request.query.outFields == ["APN", "UseType", "Roll_LandValue"])
        #expect(request.query.returnGeometry)
        #expect(request.query.outSpatialReference?.wkid == 4326)
        #expect(request.query.maxFeatures == 500)
        #expect(request.query.result == .features)
    }

    @Test func serviceWithSublayersRequest() throws {
        let request = try Self.query("request-service-sublayers.json")
        #expect(request.targets == [
            .arcgis(url: "https://sampleserver6.arcgisonline.com/arcgis/rest/services/USA/MapServer", layers: [0, 2]),
            .arcgis(url: "https://sampleserver6.arcgisonline.com/arcgis/rest/services/USA/MapServer/3", layers: nil),
        ])
        #expect(request.query.result == .count)
    }

    @Test func geoJSONGeometryRequest() throws {
        let request = try Self.query("request-geojson-geometry.json")
        guard case .polygon(let polygon)? = request.query.geometry else {
            Issue.record("expected a polygon, got \(String(describing: request.query.geometry))")
            return
        }
        #expect(polygon.spatialReference == .wgs84)
        #expect(polygon.rings.count == 1)
        #expect(request.query.spatialRelationship == .contains)
        #expect(request.query.extent == nil)
    }

    @Test func esriGeometryRequest() throws {
        let request = try Self.query("request-esri-geometry.json")
        // The trailing slash of the example's URL is dropped.
        #expect(request.targets.first?.url.hasSuffix("/FeatureServer/0") == true)
        guard case .polyline(let line)? = request.query.geometry else {
            Issue.record("expected a polyline, got \(String(describing: request.query.geometry))")
            return
        }
        #expect(line.spatialReference?.isWebMercator == true)
        #expect(line.paths.first?.count == 3)
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func everyExampleSatisfiesItsSchemaAndAsyncAPIReferencesThem() async throws {
        let python = try #require(ContractSupport.python, "no Python: run scripts/setup-deps")
        let output = try await ContractSupport.run(python, [ContractSupport.validator, "--examples"], timeout: 120)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains(" examples, 0 problems"), "\(output.stdout)")
    }
}
