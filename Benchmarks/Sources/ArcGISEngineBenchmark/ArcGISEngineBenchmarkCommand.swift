import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `arcgis-engine-benchmark`: the ArcGIS engine against Python peers on the sample feature server. Run it
/// through `Benchmarks/run-arcgis-benchmark.sh`, which builds everything, installs the Python peers into the
/// repository's `.venv` and starts the servers.
///
/// `download` and `selection` drive one benchmark each: every measured run, on either side, is a fresh child
/// process (this executable's `engine-download` / `engine-select`, or a script in `Benchmarks/python/`), so
/// that each side's peak RSS is its own and nothing carries over between runs.
@main
struct ArcGISEngineBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arcgis-engine-benchmark",
        abstract: "The ArcGIS engine against esridump and an ArcGIS-API-for-Python-style ids query.",
        subcommands: [DownloadBenchmark.self, SelectionBenchmark.self, EngineDownload.self, EngineSelect.self]
    )
}

/// What both drivers need: where the peers are, how often to run, where to put files.
struct DriverOptions: ParsableArguments {
    @Option(help: "The layer URL (…/FeatureServer/0).")
    var layer: String

    @Option(help: "The Python interpreter that has the peers' requirements (Benchmarks/requirements-bench.txt).")
    var python: String

    @Option(help: "The folder of the Python peers (Benchmarks/python).")
    var peers: String

    @Option(help: "Measured runs of each side; the table shows the medians. The order of the sides alternates.")
    var repetitions: Int = 3

    @Option(help: "Uncounted runs of each side first (they warm the server's selection cache for both).")
    var warmups: Int = 1

    @Option(help: "A folder for the GeoJSON and id files of each run; default: a new folder under /tmp.")
    var workDir: String?

    @Option(name: .customLong("client-cpus"), help: "CPUs (taskset -c list) the client processes run on; default: unpinned.")
    var clientCPUs: String?

    @Option(help: "Log level of the engine in the child processes.")
    var logLevel: String = "warning"

    @Flag(help: "Exit with status 1 when a speed or memory target is missed (wrong ids always fail the run).")
    var strict = false

    func validate() throws {
        guard repetitions > 0, warmups >= 0 else { throw ValidationError("--repetitions must be positive, --warmups not negative") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    /// The work folder, created if needed.
    func makeWorkDirectory(prefix: String) throws -> String {
        let path = workDir ?? NSTemporaryDirectory() + "/\(prefix).\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes the work folder if this run made it up (a folder given with --work-dir is the caller's).
    func removeWorkDirectory(_ path: String) {
        if workDir == nil { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The order of the sides in one repetition: the first side alternates.
    static func order<Side>(_ sides: [Side], repetition: Int) -> [Side] {
        repetition % 2 == 0 ? sides : Array(sides.reversed())
    }
}

/// Sets up logging for a child process (standard error, at `level`).
func bootstrapLogging(_ level: String) -> Logger {
    let level = Logger.Level(rawValue: level) ?? .warning
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    return Logger(label: "arcgis-engine-benchmark")
}
