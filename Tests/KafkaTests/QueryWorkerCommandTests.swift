import ChildProcessFixture
import Foundation
import Testing

/// `query-worker query` as a user runs it: against `query-worker run`, `query-worker embedded-kafka` and
/// `sample-feature-server`, each a child process, checking what `query` prints and its exit status.
@Suite struct QueryWorkerCommandTests {
    static var queryWorker: String? { EmbeddedKafkaCommandTests.executable }

    static var sampleServer: String? {
        queryWorker.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("sample-feature-server").path }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }

    /// The seed extent in degrees (about the sample data's densest parcels, around 34.03 N, 118.805 W).
    static let seedExtent = "-118.8373,34.0121,-118.7727,34.0479"

    @Test func queryWaitPrintsEachKindOfOutcomeAndItsExitStatus() async throws {
        let executable = try #require(Self.queryWorker, "query-worker was not built")
        let serverExecutable = try #require(Self.sampleServer, "sample-feature-server was not built")
        let kafka = try CommandChild.start(
            executable,
            ["embedded-kafka", "--topic", "feature-queries:3", "--topic", "feature-query-results:1",
             "--topic", "feature-query-errors:1", "--log-level", "warning"])
        defer { kafka.stop() }
        let bootstrap = try #require(kafka.firstLine, "no bootstrap line")
        let server = try CommandChild.start(serverExecutable, ["--parcels", "20000", "--log-level", "warning"])
        defer { server.stop() }
        let services = try #require(server.firstLine, "no services URL")
        // Results above 1 KiB are split into parts, so `query` has to put them back together.
        let worker = try CommandChild.start(
            executable,
            ["run", "--bootstrap-servers", bootstrap, "--allowed-hosts", "127.0.0.1", "--group-id", "command-tests",
             "--set", "maxResultBytes=1KiB", "--log-level", "warning"],
            readsFirstLine: false)
        defer { worker.stop() }

        func query(_ arguments: [String]) async throws -> CommandOutput {
            try await CommandOutput.run(executable, ["query", "--bootstrap-servers", bootstrap, "--wait"] + arguments)
        }
        let parcels = "\(services)/LA_County_Parcels/FeatureServer/0"
        async let named = query(["--target", parcels, "--named-where", "government", "--extent", Self.seedExtent])
        async let split = query(["--target", parcels, "--where", "UseType = 'Residential'", "--reassembled", "--task-id", "split"])
        async let parts = query(["--target", parcels, "--where", "UseType = 'Residential'", "--json"])
        async let catalog = query(["--target", "\(services)/USA/MapServer", "--result", "catalog"])
        async let catalogParts = query(["--target", "\(services)/USA/MapServer", "--result", "catalog", "--json"])
        async let geoJSON = query([
            "--target", "\(services)/USA/MapServer/0", "--where", "ST = 'CA'", "--result", "features",
            "--out-fields", "ST", "--return-geometry", "--max-features", "5", "--timeout", "30s",
        ])
        async let fanOut = query([
            "--target", "\(services)/USA/MapServer", "--layers", "0,2,3", "--where", "POP2000 > 1000000", "--result", "count",
        ])
        async let raster = query(["--target", "\(services)/USA/MapServer/4", "--request-id", "raster-1"])
        async let outside = query(["--target", "https://services3.arcgis.com/x/arcgis/rest/services/P/FeatureServer/0"])
        async let unanswered = query(["--target", parcels, "--topic", "nobody-reads-this", "--wait-timeout", "3s"])

        let government = try await named
        #expect(government.status == 0, "\(government)")
        let lines = government.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first.map { UUID(uuidString: $0) != nil } == true, "the first line is the requestId: \(government)")
        #expect(lines.dropFirst().first?.hasPrefix("succeeded  request \(lines.first ?? "")") == true, "\(government)")
        #expect(government.stdout.contains("\(parcels)\n"))
        #expect(government.stdout.contains("matching, complete"))
        #expect(government.stdout.contains("    ids "))

        let whole = try await split
        #expect(whole.status == 0, "\(whole)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any], "\(whole)")
        #expect(result["status"] as? String == "succeeded")
        #expect(result["taskId"] as? String == "split")
        #expect(result["part"] as? Int == 1 && result["parts"] as? Int == 1)
        let layer = try #require((result["layers"] as? [[String: Any]])?.first)
        let ids = try #require(layer["objectIds"] as? [Int])
        #expect(ids.count > 1_000, "a result of more than 1 KiB, published in parts")
        #expect(layer["count"] as? Int == ids.count)
        #expect(layer["complete"] as? Bool == true)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count, "the parts' slices, in order")

        // A cancel for a task with nothing in flight: published, no outcome, nothing else changes.
        let cancel = try await CommandOutput.run(
            executable, ["cancel", "--bootstrap-servers", bootstrap, "--task-id", "nothing-running", "--json"])
        #expect(cancel.status == 0, "\(cancel)")
        #expect(cancel.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"cancel":true,"taskId":"nothing-running"}"#)

        let published = try await parts
        #expect(published.status == 0, "\(published)")
        let messages = published.stdout.split(separator: "\n").map(String.init)
        #expect(messages.count > 1, "each part of the split result on its own line: \(published)")
        for (index, line) in messages.enumerated() {
            let part = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(part["part"] as? Int == index + 1)
            #expect(part["parts"] as? Int == messages.count)
        }

        let browsed = try await catalog
        #expect(browsed.status == 0, "\(browsed)")
        #expect(browsed.stdout.contains("\(services)/USA/MapServer\n    5 entries"), "\(browsed)")
        #expect(browsed.stdout.contains("0  Cities  esriGeometryPoint  \(services)/USA/MapServer/0"), "\(browsed)")
        #expect(browsed.stdout.contains("4  Elevation  (not queryable)"), "\(browsed)")

        // The worker's 1 KiB messages split the five entries: the text above was put back together from parts.
        let catalogMessages = try await catalogParts.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(catalogMessages.count > 1, "the catalog came in parts")
        let entries = catalogMessages.flatMap { message in
            (message["layers"] as? [[String: Any]] ?? []).flatMap { $0["catalog"] as? [[String: Any]] ?? [] }
        }
        #expect(entries.compactMap { $0["id"] as? String } == ["0", "1", "2", "3", "4"])

        let california = try await geoJSON
        #expect(california.status == 0, "\(california)")
        let collection = try #require(
            california.stdout.split(separator: "\n").first { $0.hasPrefix("{") }, "a GeoJSON line: \(california)")
        let features = try #require(
            try JSONSerialization.jsonObject(with: Data(collection.utf8)) as? [String: Any], "\(collection)")
        #expect(features["type"] as? String == "FeatureCollection")
        let first = try #require((features["features"] as? [[String: Any]])?.first, "\(collection)")
        #expect((first["properties"] as? [String: Any])?["ST"] as? String == "CA")
        #expect((first["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect((features["features"] as? [Any])?.count == 5, "--max-features 5")

        let usa = try await fanOut
        #expect(usa.status == 0, "\(usa)")
        #expect(usa.stdout.contains("succeeded  request"))
        #expect(usa.stdout.contains("3 layers"))
        for id in [0, 2, 3] { #expect(usa.stdout.contains("\(services)/USA/MapServer/\(id)\n")) }
        #expect(!usa.stdout.contains("    ids "), "result count returns no ids")

        let failed = try await raster
        #expect(failed.status == 2, "\(failed)")
        #expect(failed.stdout.contains("failed  request raster-1"))
        #expect(failed.stdout.contains("error unsupported_layer: "))

        let rejected = try await outside
        #expect(rejected.status == 2, "\(rejected)")
        #expect(rejected.stdout.contains("rejected  request"))
        #expect(rejected.stdout.contains("error host_not_allowed: "))

        let timedOut = try await unanswered
        #expect(timedOut.status == 1, "\(timedOut)")
        #expect(timedOut.stderr.contains("no outcome for request"))
        #expect(timedOut.stderr.contains("within 3s"))

        #expect(worker.terminate() == 0, "the worker stops cleanly on SIGTERM")
    }

    @Test(arguments: [
        (["--where", "a = 1"], "--target"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--where", "a = 1", "--named-where", "farm"], "exclude each other"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--extent", "1,2,3"], "xmin,ymin,xmax,ymax"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--extent", "3,2,1,4"], "must not exceed"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--layers", "1"], "service URL"),
        (["--target", "http://h/arcgis/rest/services/S/MapServer", "--layers", "0,x"], "'x' is not one"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--wait-timeout", "5s"], "only with --wait"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--where", "a = = 1"], "invalid_where"),
        (["--target", "ftp://h/S/FeatureServer/0"], "invalid_url"),
        (["--target", "ogc:https://h/api"], "needs --collection"),
        (["--target", "ogc:h/api", "--collection", "c"], "landing page's http(s) URL"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--collection", "c"], "no --target starts with ogc:"),
        (["--target", "ogc:https://h/api", "--result", "catalog", "--where", "a = 1"], "takes no where"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--extent", "1,2,3,4", "--geometry", "{}"], "exclude each other"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--geometry", "{\"type\":\"Point\"}"], "invalid_geometry"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--timeout", "5s", "--deadline", "2025-06-01T12:00:00Z"], "one of --timeout"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--deadline", "tomorrow"], "RFC 3339"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--reassembled"], "only with --wait"),
        (["--target", "http://h/arcgis/rest/services/S/FeatureServer/0", "--result", "features", "--out-sr", "2229"], "unsupported_spatial_reference"),
    ])
    func usageErrorsExitWithOneAndSayWhatIsWrong(arguments: [String], message: String) async throws {
        let executable = try #require(Self.queryWorker, "query-worker was not built")
        // An unreachable broker: every one of these must fail before anything talks to Kafka.
        let output = try await CommandOutput.run(executable, ["query", "--bootstrap-servers", "127.0.0.1:1"] + arguments)
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains(message), "\(output)")
        #expect(output.stdout.isEmpty)
    }
}
