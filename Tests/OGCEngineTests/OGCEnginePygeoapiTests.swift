import FeatureGeometry
import FeatureService
import PygeoapiFixture
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// The OGC engine against pygeoapi 0.21 (PyPI), an implementation nobody here wrote, over the sample cities
/// and states from a GeoJSON file (pygeoapi ignores `filter` there) and from PostGIS (it evaluates it).
/// pygeoapi 0.21 declares no CQL2 or filter class (docs/pygeoapi.md), so an honest engine never sends
/// `filter`: a clause runs in the worker (`filteredBy: client`), except simple equalities on queryables, which
/// go as Part 1 `name=value` parameters (`queryables-query-parameters` is declared). Every answer is checked
/// against the sample dataset the collections were loaded from (the fixture's, parcels 1, seed 1).
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct OGCEnginePygeoapiTests {
    /// Both providers of each dataset: the same features, different filtering.
    static let providers: [Provider] = [.geoJSONFile, .postGIS]

    enum Provider: String, Sendable, CustomTestStringConvertible {
        case geoJSONFile, postGIS
        var testDescription: String { rawValue }

        func collection(_ dataset: PygeoapiSampleService.Dataset) -> String {
            self == .geoJSONFile ? dataset.geoJSONCollection : dataset.postGISCollection
        }
    }

    /// The dataset the fixture loaded into pygeoapi: the ground truth.
    static func truth(_ layer: SampleLayer, where clause: String? = nil, envelope: Envelope? = nil) throws -> [Int] {
        try SampleDataset.shared(parcelCount: 1, seed: 1).groundTruthObjectIDs(layer, where: clause, envelope: envelope)
    }

    static func query(_ engine: OGCEngine, _ collection: String, _ query: ServiceQuery) async throws -> ServiceLayerResult {
        let service = try await PygeoapiSampleService.shared()
        return try await RealServerSupport.query(engine, landing: service.landingURL, collection: collection, query)
    }

    @Test(arguments: providers)
    func wholeCollectionsAreCompleteAndExact(_ provider: Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        try await RealServerSupport.withEngine { engine, log in
            for (layer, dataset) in [(SampleLayer.cities, service.cities), (.states, service.states)] {
                let result = try await Self.query(engine, provider.collection(dataset), ServiceQuery(result: .ids))
                let ids = try RealServerSupport.sortedIntegerIDs(result)
                #expect(ids == (try Self.truth(layer)), "\(layer)")
                #expect(ids.count == dataset.featureCount)
                #expect(result.count == dataset.featureCount)
                #expect(result.isComplete)
                #expect(result.filteredBy == nil)
                #expect(result.collection == provider.collection(dataset))
                let counted = try await Self.query(engine, provider.collection(dataset), ServiceQuery(result: .count))
                #expect(counted.count == dataset.featureCount)
            }
            #expect(!log.items.isEmpty)
        }
    }

    /// A range (and an IN list) cannot be a `name=value` parameter and pygeoapi declares no CQL2: the engine
    /// sends nothing of the clause, filters every feature itself and says so.
    @Test(arguments: providers, ["POP2000 > 100000", "POP2000 > 50000 AND ST IN ('CA', 'TX', 'NY')"])
    func rangeClausesRunInTheWorkerWithoutSendingAFilter(_ provider: Provider, _ clause: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        let truth = try Self.truth(.cities, where: clause)
        #expect(truth.count > 10 && truth.count < service.cities.featureCount / 2)
        try await RealServerSupport.withEngine { engine, log in
            let query = ServiceQuery(whereClause: try WhereClause(clause), result: .ids)
            let result = try await Self.query(engine, provider.collection(service.cities), query)
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.count == truth.count)
            #expect(result.isComplete)
            #expect(result.filteredBy == .client)
            var countQuery = query
            countQuery.result = .count
            #expect(try await Self.query(engine, provider.collection(service.cities), countQuery).count == truth.count)
            #expect(!log.items.isEmpty)
            #expect(!log.itemsSent(parameter: "filter"), "\(log.items)")
            #expect(!log.itemsSent(parameter: "filter-lang"))
            #expect(!log.itemsSent(parameter: "POP2000"))
        }
    }

    /// `ST = 'CA'` names a queryable: sent as `ST=CA` (Part 1 property parameter), evaluated by pygeoapi on
    /// both providers, re-checked by the worker, so the server is credited. With a range beside it only the
    /// equality is sent and the rest runs in the worker.
    @Test(arguments: providers)
    func equalitiesOnQueryablesGoAsPropertyParameters(_ provider: Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let collection = provider.collection(service.cities)
        try await RealServerSupport.withEngine { engine, log in
            let equality = "ST = 'CA'"
            let truth = try Self.truth(.cities, where: equality)
            #expect(truth.count > 50)
            let result = try await Self.query(engine, collection, ServiceQuery(whereClause: try WhereClause(equality)))
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.isComplete)
            #expect(result.filteredBy == .server)
            #expect(log.items.contains { $0.contains("&ST=CA") }, "\(log.items)")
            // Written in another case (ArcGIS SQL ignores it), the name is spelt as the queryables do and still sent.
            let requests = log.items.count
            let lowercase = try await Self.query(engine, collection, ServiceQuery(whereClause: try WhereClause("st = 'CA'")))
            #expect(try RealServerSupport.sortedIntegerIDs(lowercase) == truth)
            #expect(lowercase.filteredBy == .server)
            #expect(log.items.dropFirst(requests).contains { $0.contains("&ST=CA") }, "\(log.items)")
            // Only California's cities came over the wire: pygeoapi applied the parameter.
            #expect(result.count == truth.count)

            let mixed = "ST = 'CA' AND POP2000 > 100000"
            let mixedTruth = try Self.truth(.cities, where: mixed)
            #expect(!mixedTruth.isEmpty && mixedTruth.count < truth.count)
            let narrowed = try await Self.query(engine, collection, ServiceQuery(whereClause: try WhereClause(mixed)))
            #expect(try RealServerSupport.sortedIntegerIDs(narrowed) == mixedTruth)
            #expect(narrowed.count == mixedTruth.count)
            #expect(narrowed.isComplete)
            #expect(narrowed.filteredBy == .client)
            #expect(!log.itemsSent(parameter: "filter"))
            #expect(!log.itemsSent(parameter: "POP2000"))
        }
    }

    /// Clauses no `name=value` parameter can say (OR, LIKE, a field named in another case than the
    /// queryable's) run in the worker; two equalities on one field are both sent, pygeoapi honours only one
    /// of them, and the worker's re-check drops what it wrongly returned.
    @Test(arguments: providers, [
        "POP2000 > 100000 OR ST = 'CA'", "CITY_NAME LIKE 'Spring%'", "ST = 'CA' AND ST = 'NV'",
    ])
    func whatPygeoapiCannotEvaluateIsEvaluatedInTheWorker(_ provider: Provider, _ clause: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        let truth = try Self.truth(.cities, where: clause)
        try await RealServerSupport.withEngine { engine, log in
            let result = try await Self.query(engine, provider.collection(service.cities), ServiceQuery(whereClause: try WhereClause(clause)))
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.count == truth.count)
            #expect(result.isComplete)
            #expect(result.filteredBy == .client)
            #expect(!log.itemsSent(parameter: "filter"))
            if clause.hasPrefix("ST = 'CA' AND") { #expect(log.items.contains { $0.hasSuffix("&ST=CA&ST=NV") }, "\(log.items)") }
        }
    }

    /// A field no feature has and pygeoapi's queryables do not list (they allow other properties) is a misspelt
    /// name: `invalid_query` naming it once the collection was read, not an empty "complete" selection.
    @Test(arguments: providers)
    func aFieldNoFeatureHasIsInvalid(_ provider: Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        try await RealServerSupport.withEngine { engine, _ in
            let outcome = await engine.query(
                [ServiceTarget(kind: .ogc, url: service.landingURL, layers: [provider.collection(service.states)])],
                ServiceQuery(whereClause: try WhereClause("POP200 > 1")), budget: .unlimited())[0][0]
            guard case .failure(let error) = outcome.result else {
                Issue.record("a misspelt field gave \(outcome.result)")
                return
            }
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("\"POP200\""))
        }
    }

    /// `maxFeatures` cuts the ids, says why, and every id kept is a match (with and without a server filter).
    @Test(arguments: providers)
    func maxFeaturesCutsAndSaysSo(_ provider: Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let collection = provider.collection(service.cities)
        try await RealServerSupport.withEngine { engine, log in
            let whole = try await Self.query(engine, collection, ServiceQuery(maxFeatures: 100, result: .ids))
            #expect(whole.featureIds.count == 100)
            #expect(Set(whole.featureIds).count == 100)
            #expect(!whole.isComplete)
            #expect(whole.incompleteReason == .maxFeatures)

            let clause = "POP2000 > 10000"
            let truth = Set(try Self.truth(.cities, where: clause))
            #expect(truth.count > 25)
            let cut = try await Self.query(
                engine, collection, ServiceQuery(whereClause: try WhereClause(clause), maxFeatures: 25, result: .ids))
            let ids = try RealServerSupport.sortedIntegerIDs(cut)
            #expect(ids.count == 25)
            #expect(Set(ids).isSubset(of: truth))
            #expect(!cut.isComplete)
            #expect(cut.incompleteReason == .maxFeatures)
            #expect(cut.filteredBy == .client)

            // pygeoapi evaluates the equality: one page of one more than wanted, and its numberMatched is the count.
            let equality = "ST = 'CA'"
            let californian = Set(try Self.truth(.cities, where: equality))
            let few = try await Self.query(
                engine, collection, ServiceQuery(whereClause: try WhereClause(equality), maxFeatures: 5, result: .ids))
            #expect(Set(try RealServerSupport.sortedIntegerIDs(few)).isSubset(of: californian))
            #expect(few.featureIds.count == 5)
            #expect(few.count == californian.count)
            #expect(few.incompleteReason == .maxFeatures)
            #expect(few.filteredBy == .server)
            #expect(log.items.last?.contains("limit=6&ST=CA") == true, "\(log.items)")
        }
    }

    /// Features as GeoJSON: the matches, with the fields asked for.
    @Test(arguments: providers)
    func featuresCarryTheFieldsAskedFor(_ provider: Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let clause = "POP2000 > 500000"
        let truth = try Self.truth(.cities, where: clause)
        #expect(!truth.isEmpty)
        try await RealServerSupport.withEngine { engine, _ in
            let query = ServiceQuery(
                whereClause: try WhereClause(clause), outFields: ["CITY_NAME"], returnGeometry: true, result: .features)
            let result = try await Self.query(engine, provider.collection(service.cities), query)
            guard case .features(let list) = result.selection else { throw RealServerFailure("not features: \(result.selection)") }
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(list.count == truth.count)
            let collection = list.json.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",")
            #expect(collection.contains("\"CITY_NAME\""))
            #expect(!collection.contains("\"POP2000\""))
            #expect(collection.contains("\"Point\""))
        }
    }

    /// A landing page without `layers`: every collection, each right, in the landing page's order.
    @Test func aLandingPageTargetQueriesEveryCollection() async throws {
        let service = try await PygeoapiSampleService.shared()
        let clause = "POP2000 > 500000"
        try await RealServerSupport.withEngine { engine, _ in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .ogc, url: service.landingURL)], ServiceQuery(whereClause: try WhereClause(clause)),
                budget: .unlimited())
            let results = try #require(outcomes.first).map { try $0.result.get() }
            #expect(Set(results.compactMap(\.collection)) == ["cities", "cities_postgis", "states", "states_postgis"])
            for result in results {
                let layer: SampleLayer = result.collection?.hasPrefix("cities") == true ? .cities : .states
                let truth = try Self.truth(layer, where: clause)
                let all = layer == .cities ? service.cities.featureCount : service.states.featureCount
                #expect(!truth.isEmpty && truth.count < all, "\(layer): \(truth.count) of \(all)")
                #expect(try RealServerSupport.sortedIntegerIDs(result) == truth, "\(String(describing: result.collection))")
                #expect(result.isComplete && result.filteredBy == .client)
                #expect(result.url == service.server.collectionURL(result.collection ?? ""))
            }
        }
    }

    /// `result: catalog` of pygeoapi's landing page: its four collections, no filter language (none
    /// declared), and each collection's queryables.
    @Test func catalogOfTheLandingPage() async throws {
        let service = try await PygeoapiSampleService.shared()
        try await RealServerSupport.withEngine { engine, _ in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .ogc, url: service.landingURL + "/")], ServiceQuery(result: .catalog), budget: .unlimited())
            let outcome = try #require(outcomes.first?.first)
            let result = try outcome.result.get()
            guard case .catalog(let entries) = result.selection else { throw RealServerFailure("not a catalog") }
            #expect(Set(entries.map(\.id)) == ["cities", "cities_postgis", "states", "states_postgis"])
            #expect(result.count == 4)
            #expect(result.isComplete)
            for entry in entries {
                #expect(entry.itemType?.lowercased() == "feature", "\(entry.id)")
                #expect(entry.filterLanguages.isEmpty, "pygeoapi 0.21 declares no CQL2: \(entry.filterLanguages)")
                #expect(entry.url == service.server.collectionURL(entry.id))
                let fields = entry.id.hasPrefix("cities") ? ["CITY_NAME", "ST", "POP2000"] : ["STATE_NAME", "STATE_ABBR", "POP2000"]
                #expect(Set(fields).isSubset(of: Set(entry.queryables ?? [])), "\(entry.id): \(entry.queryables ?? [])")
                #expect(entry.extent?.count == 4)
            }
        }
    }
}
