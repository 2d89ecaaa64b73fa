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
        async let split = query(["--target", parcels, "--where", "UseType = 'Residential'", "--json", "--task-id", "split"])
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
