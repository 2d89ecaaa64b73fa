import FeatureQuerySupport
import FeatureService
import Foundation
import Testing

@testable import QueryWorker
import FeatureGeometry
import WorkerTestSupport
@testable import RequestContract

/// Contract 1.1's result fields as the encoder writes them: OGC layer entries (`collection`, `featureIds`,
/// `filteredBy`, `incompleteReason`) and catalogs reproduce their examples, split into parts that the README's
/// reassembly joins back exactly, and satisfy the result schema.
@Suite struct ContractOGCEncodingTests {
    static let daraa = "https://demo.ldproxy.net/daraa"
    static let usa = "https://sampleserver6.arcgisonline.com/arcgis/rest/services/USA/MapServer"

    static func ms(_ text: String) throws -> Int64 { try #require(RFC3339.milliseconds(from: text)) }

    static func message(_ id: String, task: String? = nil, _ layers: [ServiceLayerOutcome], received: String, finished: String) throws
        -> ResultMessage
    {
        ResultMessage(
            requestId: id, taskId: task ?? id, layers: layers, receivedAt: try ms(received), finishedAt: try ms(finished),
            worker: "query-worker-7d9f/1")
    }

    static func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    // MARK: The documented examples, reproduced

    @Test func ogcFeaturesResultMatchesItsExample() throws {
        let features = GeoJSONFeatureList(
            featureIds: [.string("CulturePnt.10022"), .string("CulturePnt.10517")],
            json: [
                Self.bytes(#"{"type":"Feature","id":"CulturePnt.10022","geometry":{"type":"Point","coordinates":[36.0914,32.6121]},"properties":{"F_CODE":"AL012","ZI005_FNA":"Tell Shihab","UFI":"b2b7a0f4-6c1d-4b8e-9f27-3d9d3f0c1a22"}}"#),
                Self.bytes(#"{"type":"Feature","id":"CulturePnt.10517","geometry":{"type":"Point","coordinates":[36.1472,32.5583]},"properties":{"F_CODE":"AL012","ZI005_FNA":"Tell al-Ash'ari","UFI":"0f6a51c9-2e44-4d6f-8c3b-8a7e2d9b4c10"}}"#),
            ])
        let result = try Self.message(
            "daraa-culture-1", task: "daraa-map",
            [ServiceLayerOutcome(
                url: "\(Self.daraa)/collections/CulturePnt", collection: "CulturePnt", filteredBy: .server,
                outcome: .succeeded(count: 2, complete: true, selection: .features(features)))],
            received: "2025-06-01T12:00:00.120Z", finished: "2025-06-01T12:00:00.610Z")
        #expect(try ParsedJSON(parsing: result.encoded()) == ContractEncodingTests.example("result-ogc-features.json"))
    }

    @Test func aCutClientFilteredLayerMatchesItsExample() throws {
        let result = try Self.message(
            "daraa-roads-7", task: "daraa-roads",
            [ServiceLayerOutcome(
                url: "https://ogc.example.org/daraa/collections/TransportationGroundCrv", collection: "TransportationGroundCrv",
                filteredBy: .client, incompleteReason: .maxFeatures,
                outcome: .succeeded(count: 3, complete: false, selection: .featureIds([.integer(104), .integer(117), .integer(163)])))],
            received: "2025-06-01T12:00:00.120Z", finished: "2025-06-01T12:00:01.940Z")
        #expect(try ParsedJSON(parsing: result.encoded()) == ContractEncodingTests.example("result-ogc-ids-client-filtered-cut.json"))
    }

    /// A complete layer never says why it would be incomplete, whatever the engine set.
    @Test func aCompleteLayerHasNoIncompleteReason() throws {
        let result = try Self.message(
            "r", [ServiceLayerOutcome(
                url: "\(Self.daraa)/collections/x", collection: "x", incompleteReason: .countMismatch,
                outcome: .succeeded(count: 0, complete: true, selection: .featureIds([])))],
            received: "2025-06-01T12:00:00Z", finished: "2025-06-01T12:00:00Z")
        guard case .array(let layers)? = try ParsedJSON(parsing: result.encoded())["layers"], let layer = layers.first else {
            throw ContractTestFailure("no layer entry")
        }
        #expect(layer["incompleteReason"] == nil)
        #expect(layer["filteredBy"] == nil)
        #expect(layer["featureIds"] == .array([]))
    }

    static let daraaCatalog = [
        CatalogEntry(
            id: "AgricultureSrf", title: "Agriculture (Surfaces)", description: "Agricultural areas: crop land, orchards, vineyards.",
            url: "\(daraa)/collections/AgricultureSrf", extent: [35.9, 32.3, 36.7, 33.0],
            temporalExtent: ["2011-01-01T00:00:00Z", nil], itemType: "feature",
            crs: ["http://www.opengis.net/def/crs/OGC/1.3/CRS84", "http://www.opengis.net/def/crs/EPSG/0/4326"],
            storageCrs: "http://www.opengis.net/def/crs/EPSG/0/4326", filterLanguages: ["cql2-text", "cql2-json"],
            queryables: ["F_CODE", "ZI005_FNA", "ZI001_SDV", "UFI", "FCSUBTYPE"]),
        CatalogEntry(
            id: "CulturePnt", title: "Cultural (Points)", url: "\(daraa)/collections/CulturePnt", extent: [35.9, 32.3, 36.7, 33.0],
            itemType: "feature", crs: ["http://www.opengis.net/def/crs/OGC/1.3/CRS84"], filterLanguages: ["cql2-text", "cql2-json"]),
    ]

    static let usaCatalog: [CatalogEntry] = {
        let layers = [
            ("Cities", "esriGeometryPoint"), ("Highways", "esriGeometryPolyline"), ("States", "esriGeometryPolygon"),
            ("Counties", "esriGeometryPolygon"),
        ]
        return layers.enumerated().map { index, layer in
            CatalogEntry(
                id: String(index), title: layer.0, url: "\(usa)/\(index)", geometryType: layer.1, isQueryable: true,
                supportsPagination: true)
        } + [CatalogEntry(id: "4", title: "Elevation", url: "\(usa)/4", isQueryable: false)]
    }()

    @Test func catalogResultsMatchTheirExamples() throws {
        let ogc = try Self.message(
            "browse-daraa-1",
            [ServiceLayerOutcome(url: Self.daraa, outcome: .succeeded(count: 2, complete: true, selection: .catalog(Self.daraaCatalog)))],
            received: "2025-06-01T12:00:00.120Z", finished: "2025-06-01T12:00:00.310Z")
        #expect(try ParsedJSON(parsing: ogc.encoded()) == ContractEncodingTests.example("result-catalog-ogc.json"))
        let arcgis = try Self.message(
            "browse-usa-1",
            [ServiceLayerOutcome(url: Self.usa, outcome: .succeeded(count: 5, complete: true, selection: .catalog(Self.usaCatalog)))],
            received: "2025-06-01T12:00:00.120Z", finished: "2025-06-01T12:00:00.260Z")
        #expect(try ParsedJSON(parsing: arcgis.encoded()) == ContractEncodingTests.example("result-catalog-arcgis.json"))
    }

    // MARK: Splitting

    /// String and integer ids (and a feature without one), features of a few hundred bytes, a catalog of many
    /// entries and a count-only layer: split small, every part within the limit, joined back exactly.
    static func mixedResult() throws -> ResultMessage {
        var ids: [FeatureID?] = []
        var json: [ArraySlice<UInt8>] = []
        for index in 0..<60 {
            let id: FeatureID? = index == 17 ? nil : index % 2 == 0 ? .string("f-\(index)") : .integer(Int64(index))
            ids.append(id)
            let idMember = switch id {
            case .string(let text)?: #","id":"\#(text)""#
            case .integer(let number)?: #","id":\#(number)"#
            case nil: ""
            }
            let padding = String(repeating: "p", count: 100 + index * 7)
            json.append(bytes(#"{"type":"Feature"\#(idMember),"geometry":null,"properties":{"p":"\#(padding)"}}"#))
        }
        let catalog = (0..<80).map { index in
            CatalogEntry(
                id: "Collection\(index)", title: "Collection number \(index)", url: "\(daraa)/collections/Collection\(index)",
                extent: [35.9, 32.3, 36.7, 33.0], itemType: "feature", crs: ["http://www.opengis.net/def/crs/OGC/1.3/CRS84"],
                filterLanguages: [])
        }
        let layers = [
            ServiceLayerOutcome(
                url: "\(daraa)/collections/CulturePnt", collection: "CulturePnt", filteredBy: .client, incompleteReason: .resultBudget,
                outcome: .succeeded(count: 75, complete: false, selection: .features(GeoJSONFeatureList(featureIds: ids, json: json)))),
            ServiceLayerOutcome(
                url: "\(daraa)/collections/CultureSrf", collection: "CultureSrf", filteredBy: .server,
                outcome: .succeeded(count: 200, complete: true, selection: .featureIds((0..<200).map { .string("srf-\($0)") }))),
            ServiceLayerOutcome(url: daraa, outcome: .succeeded(count: catalog.count, complete: true, selection: .catalog(catalog))),
            ServiceLayerOutcome(url: usa, outcome: .succeeded(count: 5, complete: true, selection: .catalog(usaCatalog))),
            ServiceLayerOutcome(
                url: "\(daraa)/collections/Empty", collection: "Empty",
                outcome: .succeeded(count: 12, complete: true, selection: .countOnly)),
            ServiceLayerOutcome(
                url: "\(daraa)/collections/Gone",
                outcome: .failed(FeatureServiceError(.init(rawValue: "not_found"), "gone", layer: "\(daraa)/collections/Gone"))),
        ]
        return ResultMessage(requestId: "mixed", taskId: "mixed", layers: layers, receivedAt: 0, finishedAt: 1, worker: "w")
    }

    @Test(arguments: [1_200, 2_000, 5_000])
    func featureIdsAndCatalogsSplitAndJoinBack(maxBytes: Int) throws {
        let result = try Self.mixedResult()
        let whole = try result.encoded()
        let parts = try result.split(maxBytes: maxBytes)
        #expect(parts.count > 3, "the limit forces parts")
        for part in parts { #expect(part.count <= maxBytes) }
        #expect(try ContractSplitTests.reassemble(parts) == (try ParsedJSON(parsing: whole)))
        // A catalog's entries are cut between entries, never inside one.
        var catalogSlices = 0
        for part in parts {
            guard case .array(let layers)? = try ParsedJSON(parsing: part)["layers"] else { continue }
            catalogSlices += layers.filter { $0["url"] == .string(Self.daraa) }.count
        }
        #expect(catalogSlices > 1, "the 80-entry catalog spans parts")
    }

    @Test func aFeatureTooLargeNamesItsFeatureId() throws {
        let big = Self.bytes(#"{"type":"Feature","id":"huge","geometry":null,"properties":{"p":"\#(String(repeating: "y", count: 5_000))"}}"#)
        let url = "\(Self.daraa)/collections/x"
        let result = ResultMessage(
            requestId: "r", taskId: "t",
            layers: [ServiceLayerOutcome(url: url, collection: "x", outcome: .succeeded(
                count: 1, complete: true, selection: .features(GeoJSONFeatureList(featureIds: [.string("huge")], json: [big]))))],
            receivedAt: 0, finishedAt: 0, worker: "w")
        do {
            _ = try result.split(maxBytes: 4_000)
            Issue.record("a 5 KB feature was split into 4 KB messages")
        } catch {
            #expect(error.code == .resultTooLarge)
            #expect(error.details?["featureId"] == .string("huge"))
            #expect(error.message.hasPrefix(#"feature "huge" of \#(url) takes "#))
        }
    }

    // MARK: Against the schema

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func everyOGCAndCatalogResultSatisfiesTheSchema() async throws {
        let result = try Self.mixedResult()
        var documents: [(schema: String, bytes: [UInt8])] = [("result", try result.encoded())]
        for maxBytes in [1_200, 5_000] { documents += try result.split(maxBytes: maxBytes).map { ("result", $0) } }
        let verdicts = try await ContractSupport.validate(documents)
        for (index, verdict) in verdicts.enumerated() where !verdict.valid {
            Issue.record("document \(index) is invalid: \(verdict.errors)\n\(String(decoding: documents[index].bytes.prefix(600), as: UTF8.self))")
        }
        #expect(verdicts.count == documents.count)
    }
}
