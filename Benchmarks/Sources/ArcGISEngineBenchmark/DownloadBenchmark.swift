import ArgumentParser
import BenchmarkSupport
import Foundation
import FeatureService

/// `download`: every feature of a layer (all attributes, geometry in WGS 84) as GeoJSON, through the engine
/// and through esridump, in one run: wall time, features/s, requests and peak RSS of each side, and the ratio
/// of the median times against the target. Both sides' sorted OBJECTIDs are compared in every run; a
/// difference, or a count other than --expected-features, fails the run whatever --strict says.
struct DownloadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Every feature of a layer as GeoJSON: ArcGISEngine against esridump.",
        discussion: """
            The engine side (engine-download, a fresh process per run) runs ServiceQuery(outFields: ["*"], \
            returnGeometry: true, outSpatialReference: WGS 84, result: .features) with the engine's default \
            configuration and writes GeoJSONFeatures.featureCollection() to a file. The esridump side \
            (python/esridump_download.py) does what esridump's esri2geojson command does, with the politeness \
            delay off (pause_seconds=0) and pages of --page-size. Times are from the client's first request \
            (client set-up included) to the GeoJSON file written; interpreter start-up is not counted.
            """
    )

    @OptionGroup var options: DriverOptions

    @Option(help: "The number of features the layer has; both sides must return exactly these many ids.")
    var expectedFeatures: Int = 100_000

    @Option(help: "esridump's max_page_size (its default is 1000; the sample layer's maxRecordCount is 2000).")
    var pageSize: Int = 2000

    @Option(help: "Target: esridump's median time / the engine's, at least.")
    var targetRatio: Double = 5

    enum Side: String, CaseIterable {
        case engine
        case esridump
    }

    func run() async throws {
        let work = try options.makeWorkDirectory(prefix: "arcgis-download")
        defer { options.removeWorkDirectory(work) }
        let engine = try ChildRun.selfExecutable()
        var results: [Side: [DownloadRun]] = [:]
        var failures: [String] = []
        var esridumpVersion = "?"

        output(
            "arcgis-engine-benchmark download: every feature of \(options.layer) (outFields=*, geometry in WGS 84, "
                + "outSR=4326) written as one GeoJSON FeatureCollection; \(options.repetitions) measured "
                + "repetition\(options.repetitions == 1 ? "" : "s") + \(options.warmups) warm-up, each side a fresh "
                + "process per run, the first side alternating; client CPUs: \(options.clientCPUs ?? "unpinned")")
        output(
            "  engine:   ArcGISEngine defaults (pageConcurrency 6, maxConcurrentRequestsPerHost 16), featureOutput .geoJSON")
        output(
            "  esridump: EsriDumper(max_page_size=\(pageSize), outSR=4326, pause_seconds=0: its politeness delay, 10 s "
                + "every 5 requests by default, is OFF), json.dumps per feature as esri2geojson writes them")

        let total = options.warmups + options.repetitions
        for index in 0..<total {
            let counted = index >= options.warmups
            let label = counted ? "run \(index - options.warmups + 1)" : "warm-up \(index + 1)"
            var idLists: [Side: IDList] = [:]
            for side in DriverOptions.order(Side.allCases, repetition: index) {
                let ids = "\(work)/\(side.rawValue)-\(index).ids"
                let geojson = "\(work)/\(side.rawValue)-\(index).geojson"
                let command: [String]
                switch side {
                case .engine:
                    command = [
                        engine, "engine-download", "--layer", options.layer, "--geojson-out", geojson, "--ids-out", ids,
                        "--log-level", options.logLevel,
                    ]
                case .esridump:
                    command = [
                        options.python, options.peers + "/esridump_download.py", "--layer", options.layer,
                        "--geojson-out", geojson, "--ids-out", ids, "--page-size", String(pageSize),
                    ]
                }
                let fields = try await ChildRun(command: command, cpus: options.clientCPUs).run()
                let measured = try DownloadRun(fields)
                if side == .esridump { esridumpVersion = fields.fields["esridump_version"] ?? "?" }
                try? FileManager.default.removeItem(atPath: geojson)
                idLists[side] = try IDList(path: try fields.string("ids_file"))
                try? FileManager.default.removeItem(atPath: ids)
                output("\(label): \(measured.line(side.rawValue))")
                if counted { results[side, default: []].append(measured) }
                if side == .engine, measured.complete != "true" {
                    failures.append("\(label): the engine reported its result incomplete (expected \(measured.expected))")
                }
            }
            if let problem = compare(idLists) {
                failures.append("\(label): \(problem)")
                output("\(label): IDS DIFFER: \(problem)")
            } else if let list = idLists[.engine] {
                output("\(label): ids identical on both sides: \(list.summary)")
            }
        }
        let passed = printTable(results, esridumpVersion: esridumpVersion)
        if !failures.isEmpty {
            output("FAILED: the sides' OBJECTIDs are wrong:")
            for failure in failures { output("  " + failure) }
            throw ExitCode(1)
        }
        if options.strict && !passed { throw ExitCode(1) }
    }

    /// nil when both sides returned exactly the same --expected-features ids; else what is wrong.
    private func compare(_ lists: [Side: IDList]) -> String? {
        guard let engine = lists[.engine], let esridump = lists[.esridump] else { return "a side wrote no ids" }
        if engine != esridump { return IDList.difference(engine, "engine", esridump, "esridump") }
        if engine.ids.count != expectedFeatures {
            return "both sides returned \(engine.ids.count) ids, not \(expectedFeatures)"
        }
        return nil
    }

    /// The medians, the ratio against the target and the engine's phases; returns whether the target passed.
    private func printTable(_ results: [Side: [DownloadRun]], esridumpVersion: String) -> Bool {
        func med(_ side: Side, _ figure: (DownloadRun) -> Double) -> Double { median((results[side] ?? []).map(figure)) }
        output("")
        output(
            "Whole-layer download, \(expectedFeatures) features as GeoJSON, median of \(options.repetitions) "
                + "run\(options.repetitions == 1 ? "" : "s") (esridump \(esridumpVersion), pause_seconds=0)")
        let header = [
            "client".padding(9), "seconds".leftPadding(8), "features/s".leftPadding(11), "requests".leftPadding(8),
            "peak RSS MB".leftPadding(11), "GeoJSON MB".leftPadding(10),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for side in Side.allCases {
            let row = [
                side.rawValue.padding(9), format(med(side, \.seconds), 3).leftPadding(8),
                format(med(side, \.featuresPerSecond), 0).leftPadding(11), format(med(side) { Double($0.requests) }, 0).leftPadding(8),
                format(megabytes(kib: med(side) { Double($0.maxRSSKiB) }), 1).leftPadding(11),
                format(med(side) { Double($0.geojsonBytes) } / 1e6, 1).leftPadding(10),
            ]
            output(row.joined(separator: " | "))
        }
        output("")
        let engineSeconds = med(.engine, \.seconds)
        let ratio = engineSeconds > 0 ? med(.esridump, \.seconds) / engineSeconds : 0
        let passed = ratio >= targetRatio
        output(
            "time esridump/engine: \(format(ratio, 2))x  -> \(passed ? "PASS" : "FAIL") (target >= \(format(targetRatio, 2))x)")
        output(
            "(info) engine phases, median: query (metadata, count, pages fetched and decoded) "
                + "\(format(med(.engine) { $0.querySeconds ?? 0 }, 3)) s, GeoJSON encoding "
                + "\(format(med(.engine) { $0.geojsonSeconds ?? 0 }, 3)) s, file write \(format(med(.engine) { $0.writeSeconds ?? 0 }, 3)) s")
        output(
            "(info) requests: the engine's count is LayerQueryResult.requests (count + pages; the layer metadata "
                + "request is not counted), esridump's every request it sent (metadata + count + pages)")
        output(
            "(info) peak RSS engine/esridump: \(format(med(.engine) { Double($0.maxRSSKiB) } / max(1, med(.esridump) { Double($0.maxRSSKiB) }), 2))x")
        output(passed ? "ALL TARGETS PASS" : "SOME TARGETS FAIL")
        return passed
    }
}
