import FeatureGeometry
import FeatureQuerySupport
import Foundation
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The feature-table ground truth: SQL over the `Parcel_Sales` rows PygeoapiSalesService loaded into PostGIS
/// (fetched from a sample server over the worker harness's data), computed by PostgreSQL, independently of
/// the worker, its engines and the sample server's own statistics.
struct SalesTruth {
    let service: PygeoapiSalesService
    var database: PostGISDatabase { service.database }

    /// The shared PostGIS and pygeoapi, after checking they hold the harness's data.
    static func shared(for harness: WorkerHarness) async throws -> SalesTruth {
        let service = try await PygeoapiSalesService.shared()
        let loaded = PygeoapiSalesService.dataset
        try #require(
            harness.dataset.parcelCount == loaded.parcelCount && harness.dataset.seed == loaded.seed,
            "PostGIS holds the sales of the harness's dataset")
        let count = try await service.database.psql("SELECT count(*) FROM \(PygeoapiSalesService.table)")
        try #require(Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) == service.featureCount, "every sale loaded")
        return SalesTruth(service: service)
    }

    /// The rows `sql` selects, as JSON objects (`json_agg`: numbers, strings, null), in its order.
    func rows(_ sql: String) async throws -> [[String: ParsedJSON]] {
        let text = try await database.psql("SELECT coalesce(json_agg(t), '[]'::json) FROM (\(sql)) t")
        let parsed = try ParsedJSON(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
        let rows = try #require(parsed.arrayValue, "json_agg answers an array: \(text.prefix(200))")
        return try rows.map { try #require($0.objectValue, "a row is an object") }
    }

    /// The single column of `sql`'s rows as integers (OBJECTIDs), in its order.
    func integers(_ sql: String) async throws -> [Int] {
        try await rows(sql).map { row in
            let value = try #require(row.values.first?.numberValue, "an integer column: \(row)")
            return try #require(Int(exactly: value))
        }
    }

    /// The pygeoapi collection URL pieces of the sales (PostgreSQL provider, `time_field` SaleDate).
    var pygeoapiLanding: String { service.landingURL }
    var pygeoapiCollection: String { service.collection }
}

/// Statistics rows keyed by their group's text (`null` for a null group value), each value a Double or nil.
typealias StatisticsTable = [String: [String: Double?]]

enum TableComparison {
    /// A group key: the group values' texts joined by `|`, `null` for null.
    static func key(_ values: [ParsedJSON?]) -> String {
        values.map { value -> String in
            switch value {
            case .string(let text)?: text
            case .number(let number)?: String(number)
            default: "null"
            }
        }.joined(separator: "|")
    }

    /// SQL rows as a table: `groupColumns` make the key, `names` the values.
    static func table(_ rows: [[String: ParsedJSON]], groupColumns: [String], names: [String]) -> StatisticsTable {
        var table: StatisticsTable = [:]
        for row in rows {
            var values: [String: Double?] = [:]
            for name in names { values[name] = .some(row[name]?.numberValue) }
            table[key(groupColumns.map { row[$0] })] = values
        }
        return table
    }

    /// A worker result's `statistics` rows as a table, and the groups' keys in the rows' order.
    static func table(_ layer: ParsedJSON?, groupColumns: [String]) -> (table: StatisticsTable, order: [String]) {
        var table: StatisticsTable = [:]
        var order: [String] = []
        for row in layer?.elements("statistics") ?? [] {
            let group = row["group"]?.objectValue ?? [:]
            let key = key(groupColumns.map { group[$0] })
            var values: [String: Double?] = [:]
            for (name, value) in row["values"]?.objectValue ?? [:] { values[name] = .some(value.numberValue) }
            table[key] = values
            order.append(key)
        }
        return (table, order)
    }

    /// Whether two numbers agree within `relative` of the larger magnitude (exactly, for zero).
    static func close(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
        abs(a - b) <= relative * max(abs(a), abs(b))
    }

    /// The differences between two tables (empty when they agree within the tolerance), for a failing report.
    static func differences(_ actual: StatisticsTable, _ expected: StatisticsTable) -> [String] {
        var differences: [String] = []
        if actual.keys.sorted() != expected.keys.sorted() {
            differences.append("groups \(actual.keys.sorted()) vs \(expected.keys.sorted())")
        }
        for (group, values) in expected {
            guard let other = actual[group] else { continue }
            if other.keys.sorted() != values.keys.sorted() {
                differences.append("\(group): names \(other.keys.sorted()) vs \(values.keys.sorted())")
            }
            for (name, value) in values {
                switch (other[name] ?? nil, value) {
                case (nil, nil): continue
                case (let x?, let y?) where close(x, y): continue
                case (let x, let y): differences.append("\(group).\(name): \(String(describing: x)) vs SQL \(String(describing: y))")
                }
            }
        }
        return differences
    }
}
