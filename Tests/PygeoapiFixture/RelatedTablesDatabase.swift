import CurlHTTP
import Foundation
import Logging
package import SampleFeatureServer

/// The related-records ground truth: the parcels' keys, `Parcel_Assessments`, `Parcel_Owners`, the states and
/// the counties in a PostgreSQL of their own (no pygeoapi: nothing serves them), read from a sample server's
/// plain `/query` (f=json pages), never its `queryRelatedRecords`, so that SQL joins check the relationships
/// independently of the server's related code and of the worker. Started on first use by ``shared()``.
package struct RelatedTablesDatabase: Sendable {
    /// The data the tables are read from: `WorkerHarness`'s parcel count and seed.
    package static let dataset = (parcelCount: 20_000, seed: UInt64(7))
    /// Table name → the layer it holds and the fields loaded (the parcels' keys; every attribute of the others).
    package static let tables: [(name: String, layer: SampleLayer, outFields: String)] = [
        ("parcels", .parcels, "OBJECTID,APN"),
        ("parcel_assessments", .parcelAssessments, "*"),
        ("parcel_owners", .parcelOwners, "*"),
        ("states", .states, "*"),
        ("counties", .counties, "*"),
    ]

    package let database: PostGISDatabase

    private static let instance = Task { try await launch() }

    /// The process's database, loaded by the first caller (a few seconds), then returned at once.
    package static func shared() async throws -> RelatedTablesDatabase {
        try await instance.value
    }

    private static func launch() async throws -> RelatedTablesDatabase {
        let directory = try FixtureTools.makeDirectory(prefix: "related-tables")
        do {
            // PostgreSQL starts while the rows are fetched; its watchdog owns the directory the CSV files are in.
            async let started = PostGISDatabase.start(databaseName: "related", ownedDirectories: [directory])
            let sampleData = try SampleDataset.shared(parcelCount: dataset.parcelCount, seed: dataset.seed)
            let loaded = try await TableRows.fetch(tables.map { ($0.layer, $0.outFields) }, dataset: sampleData)
            let database = try await started
            for (table, rows) in zip(tables, loaded) {
                let path = "\(directory)/\(table.name).csv"
                try Data(rows.csv.utf8).write(to: URL(fileURLWithPath: path))
                // COPY runs in the server (as postgres), which reads the file from the directory it owns.
                try await database.psql("""
                    CREATE TABLE \(table.name) (\(rows.columns)); \
                    COPY \(table.name) FROM '\(path)' WITH (FORMAT csv); \
                    ALTER TABLE \(table.name) ADD PRIMARY KEY ("OBJECTID")
                    """)
            }
            try await database.psql(#"""
                CREATE INDEX ON parcel_assessments ("ParcelAPN"); CREATE INDEX ON parcel_owners ("OwnerAPN");
                CREATE INDEX ON parcels ("APN"); ANALYZE
                """#)
            return RelatedTablesDatabase(database: database)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }
}

/// A layer's rows read through `/query` (f=json, OBJECTID order, by `resultOffset`) as CSV for COPY, with the
/// column list its `fields` give.
private struct TableRows {
    var columns: String
    var csv: String

    static func fetch(_ layers: [(SampleLayer, String)], dataset: SampleDataset) async throws -> [TableRows] {
        try await SampleGeoJSON.withSampleServer(dataset) { server, client in
            var tables: [TableRows] = []
            for (layer, outFields) in layers {
                tables.append(try await read(layer, outFields: outFields, expected: dataset.featureCount(layer), server: server, client: client))
            }
            return tables
        }
    }

    private static func read(
        _ layer: SampleLayer, outFields: String, expected: Int, server: SampleFeatureServer, client: HTTPClient
    ) async throws -> TableRows {
        var names: [String] = []
        var columns = ""
        var lines: [String] = []
        while lines.count < expected {
            let parameters = [
                ("where", "1=1"), ("outFields", outFields), ("orderByFields", "OBJECTID"), ("returnGeometry", "false"),
                ("resultOffset", String(lines.count)), ("resultRecordCount", "1000"), ("f", "json"),
            ]
            let query = parameters.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
            let response = try await client.execute(HTTPRequest(url: server.queryURL(layer) + "?" + query))
            guard response.status == 200, let page = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let features = page["features"] as? [[String: Any]], !features.isEmpty, let fields = page["fields"] as? [[String: Any]]
            else {
                throw FixtureFailure("sample server \(layer.rawValue): HTTP \(response.status) \(response.bodyString.prefix(300))")
            }
            if names.isEmpty {
                let typed = try fields.map { field -> (String, String) in
                    guard let name = field["name"] as? String, let type = field["type"] as? String else {
                        throw FixtureFailure("\(layer.rawValue): a field without name or type")
                    }
                    return (name, sqlType(type))
                }
                names = typed.map(\.0)
                columns = typed.map { #""\#($0.0)" \#($0.1)"# }.joined(separator: ", ")
            }
            for feature in features {
                let attributes = feature["attributes"] as? [String: Any] ?? [:]
                lines.append(names.map { csvField(attributes[$0]) }.joined(separator: ","))
            }
        }
        guard lines.count == expected else { throw FixtureFailure("\(layer.rawValue): \(lines.count) rows, expected \(expected)") }
        return TableRows(columns: columns, csv: lines.joined(separator: "\n") + "\n")
    }

    /// The PostgreSQL type of an Esri field type: whole numbers as bigint (dates are epoch milliseconds).
    private static func sqlType(_ esri: String) -> String {
        switch esri {
        case "esriFieldTypeOID", "esriFieldTypeInteger", "esriFieldTypeSmallInteger", "esriFieldTypeBigInteger", "esriFieldTypeDate":
            "bigint"
        case "esriFieldTypeDouble", "esriFieldTypeSingle": "double precision"
        default: "text"
        }
    }

    /// A CSV field: empty (unquoted) for null, strings always quoted (so an empty string is not null).
    private static func csvField(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: ""
        case let text as String: "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case let number as NSNumber: number.stringValue
        case let other?: "\"\(other)\""
        }
    }
}
