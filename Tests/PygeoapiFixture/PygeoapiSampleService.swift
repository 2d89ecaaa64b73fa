import Foundation
import SampleFeatureServer

/// One pygeoapi per test process over the sample cities and states, each served twice: from a GeoJSON file
/// (pygeoapi ignores `filter` there) and from PostGIS (pygeoapi evaluates it). Started on first use by
/// ``shared()`` and shared by every suite; never stopped explicitly: its watchdogs stop PostgreSQL and
/// pygeoapi and delete their files when the test process ends.
package struct PygeoapiSampleService: Sendable {
    /// How long each part of starting took, for the start-up budget (CI runs this once per test process).
    package struct StartupTimes: Sendable {
        package var sampleData: Duration
        package var postgres: Duration
        package var pygeoapi: Duration
        package var total: Duration
    }

    /// One collection pair: the same features behind both providers.
    package struct Dataset: Sendable {
        /// The collection served by the GeoJSON provider (filter ignored).
        package let geoJSONCollection: String
        /// The collection served by the PostgreSQL provider (filter evaluated).
        package let postGISCollection: String
        /// The FeatureCollection both were loaded from: the ground truth.
        package let geoJSONPath: String
        package let featureCount: Int
        /// The property names, OBJECTID first (the ArcGIS layer's fields).
        package let fieldNames: [String]
    }

    package let server: PygeoapiServer
    package let database: PostGISDatabase
    /// USA cities: 3,503 points, `OBJECTID`, `CITY_NAME`, `ST`, `POP2000`.
    package let cities: Dataset
    /// USA states: 51 polygons, `OBJECTID`, `STATE_NAME`, `STATE_ABBR`, `STATE_FIPS`, `POP2000`.
    package let states: Dataset
    package let startup: StartupTimes

    package var landingURL: String { server.landingURL }

    private static let instance = Task { try await launch() }

    /// The process's service, started by the first caller (about 5 to 10 s), then returned at once.
    package static func shared() async throws -> PygeoapiSampleService {
        try await instance.value
    }

    /// Whether the pygeoapi tests can run: pygeoapi, PostgreSQL and ogr2ogr are installed, or
    /// `QUERY_WORKER_REQUIRE_INTEROP=1` (scripts/test) says they must (then a missing one fails the tests).
    package static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" { return true }
        guard let python = FixtureTools.python, FixtureTools.postgresBin != nil, FixtureTools.find("ogr2ogr") != nil else { return false }
        let bin = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("pygeoapi").path
        return FileManager.default.isExecutableFile(atPath: bin)
    }

    private static func launch() async throws -> PygeoapiSampleService {
        let clock = ContinuousClock()
        let started = clock.now
        let directory = try FixtureTools.makeDirectory(prefix: "pygeoapi-data")
        do {
            // PostgreSQL starts while the sample data is generated and fetched; its watchdog owns the data
            // directory (the table loads read from it, and it outlives pygeoapi's).
            async let postgres = timed { try await PostGISDatabase.start(ownedDirectories: [directory]) }
            let (collections, sampleData) = try await timed {
                try await SampleGeoJSON.featureCollections([.cities, .states], dataset: SampleDataset.shared(parcelCount: 1, seed: 1))
            }
            let (database, postgresTime) = try await postgres
            let loadStarted = clock.now
            let cities = try await load(.cities, "cities", from: collections, into: database, directory: directory)
            let states = try await load(.states, "states", from: collections, into: database, directory: directory)
            let loaded = clock.now
            let server = try await PygeoapiServer.start(collections: [
                PygeoapiCollection(id: cities.geoJSONCollection, title: "Cities (GeoJSON file)", source: .geoJSONFile(path: cities.geoJSONPath)),
                PygeoapiCollection(id: cities.postGISCollection, title: "Cities (PostGIS)", source: .postGIS(database, table: "cities")),
                PygeoapiCollection(id: states.geoJSONCollection, title: "States (GeoJSON file)", source: .geoJSONFile(path: states.geoJSONPath)),
                PygeoapiCollection(id: states.postGISCollection, title: "States (PostGIS)", source: .postGIS(database, table: "states")),
            ])
            return PygeoapiSampleService(
                server: server, database: database, cities: cities, states: states,
                startup: StartupTimes(
                    sampleData: sampleData, postgres: postgresTime + (loaded - loadStarted), pygeoapi: clock.now - loaded,
                    total: clock.now - started))
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Writes one layer's FeatureCollection to `{directory}/{name}.geojson` and loads it into table `name`.
    private static func load(
        _ layer: SampleLayer, _ name: String, from collections: [SampleLayer: Data], into database: PostGISDatabase, directory: String
    ) async throws -> Dataset {
        guard let collection = collections[layer] else { throw FixtureFailure("no sample GeoJSON for \(layer.rawValue)") }
        let path = "\(directory)/\(name).geojson"
        try collection.write(to: URL(fileURLWithPath: path))
        try await database.load(geoJSONFile: path, table: name)
        let dataset = try SampleDataset.shared(parcelCount: 1, seed: 1)
        return Dataset(
            geoJSONCollection: name, postGISCollection: "\(name)_postgis", geoJSONPath: path,
            featureCount: dataset.featureCount(layer), fieldNames: dataset.fieldNames(layer))
    }

    private static func timed<T: Sendable>(_ body: () async throws -> T) async throws -> (T, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try await body()
        return (value, clock.now - start)
    }
}
