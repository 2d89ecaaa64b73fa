import PygeoapiFixture
import Testing
import Foundation

/// The PostGIS fixture on its own: a second cluster, loaded from the sample states, queried and stopped.
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct PostGISDatabaseTests {
    /// ogr2ogr keeps the features' ids as the primary key and the property names' case; the geometry is
    /// EPSG:4326 with PostGIS. After `stop()` the server no longer answers.
    @Test func loadsGeoJSONKeepingIdsAndNamesAndStops() async throws {
        let service = try await PygeoapiSampleService.shared()
        let database = try await PostGISDatabase.start(databaseName: "standalone")
        do {
            try await database.load(geoJSONFile: service.states.geoJSONPath, table: "states")
            let summary = try await database.psql(
                #"SELECT count(*), min(id), max(id), count(*) FILTER (WHERE id = "OBJECTID"), min(ST_SRID(geom)) FROM states"#)
            let count = service.states.featureCount
            #expect(summary.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)|1|\(count)|\(count)|4326")
            let columns = try await database.psql(
                "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'states'")
            let names = Set(columns.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init))
            #expect(names == Set(["id", "geom"] + service.states.fieldNames))
        } catch {
            await database.stop()
            throw error
        }
        await database.stop()
        await #expect(throws: (any Error).self) { try await database.psql("SELECT 1") }
    }
}
