import Foundation
import SampleFeatureServer

/// The time-aware `Parcel_Sales` layer in a PostGIS of its own, as table `parcel_sales`, served by a pygeoapi
/// of its own (PostgreSQL provider, `time_field` SaleDate), so that ``PygeoapiSampleService`` keeps its four
/// collections and suites that need only the sales start neither. The feature-table ground truth: SQL over this table
/// computes what the worker must answer. The first ``parcelCount`` parcels of the same data are in table
/// `parcels` too (polygons; not served). Started on first use by ``shared()``; stopped with the test process.
package struct PygeoapiSalesService: Sendable {
    /// The parcel count and seed of the data the sales are fetched from: `WorkerHarness`'s, so that the table
    /// holds exactly what the harness's sample server serves.
    package static let dataset = (parcelCount: 20_000, seed: UInt64(7))
    /// The table: `id` (= OBJECTID, primary key), `OBJECTID`, `APN`, `UseType`, `DocType`, `SalePrice`
    /// (integer), `SaleDate` (`timestamptz`; the ArcGIS face's epoch milliseconds), `geom` (EPSG:4326).
    package static let table = "parcel_sales"
    /// How many parcels (OBJECTIDs 1…n of `LA_County_Parcels/FeatureServer/0`) table `parcels` holds.
    package static let parcelCount = 3_000

    package let database: PostGISDatabase
    package let server: PygeoapiServer
    /// The collection id pygeoapi serves the table as.
    package let collection: String
    package let featureCount: Int

    package var landingURL: String { server.landingURL }

    private static let instance = Task { try await launch() }

    /// The process's service, started by the first caller (about 5 to 10 s), then returned at once.
    package static func shared() async throws -> PygeoapiSalesService {
        try await instance.value
    }

    private static func launch() async throws -> PygeoapiSalesService {
        let directory = try FixtureTools.makeDirectory(prefix: "pygeoapi-sales")
        do {
            // PostgreSQL starts while the sample data is generated and fetched; its watchdog owns the data
            // directory (the table loads read from it).
            async let started = PostGISDatabase.start(databaseName: "sales", ownedDirectories: [directory])
            let sampleData = try SampleDataset.shared(parcelCount: dataset.parcelCount, seed: dataset.seed)
            let collections = try await SampleGeoJSON.featureCollections([.parcelSales], dataset: sampleData)
            let parcels = try await SampleGeoJSON.featureCollections([.parcels], dataset: sampleData, firstFeatures: parcelCount)
            let database = try await started
            for (layer, name, collections) in [(SampleLayer.parcelSales, table, collections), (.parcels, "parcels", parcels)] {
                guard let features = collections[layer] else { throw FixtureFailure("no sample GeoJSON for \(layer)") }
                let path = "\(directory)/\(name).geojson"
                try features.write(to: URL(fileURLWithPath: path))
                try await database.load(geoJSONFile: path, table: name)
            }
            // ogr2ogr reads the ArcGIS face's epoch milliseconds as integers: make them times.
            try await database.psql(
                #"ALTER TABLE \#(table) ALTER COLUMN "SaleDate" TYPE timestamptz USING to_timestamp("SaleDate" / 1000.0)"#)
            let collection = "\(table)_postgis"
            let server = try await PygeoapiServer.start(
                collections: [
                    PygeoapiCollection(
                        id: collection, title: "Parcel sales (PostGIS)", source: .postGIS(database, table: table), timeField: "SaleDate",
                        temporal: (begin: "2015-01-01T00:00:00Z", end: "2024-12-31T23:59:59Z"))
                ])
            return PygeoapiSalesService(
                database: database, server: server, collection: collection, featureCount: sampleData.featureCount(.parcelSales))
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }
}
