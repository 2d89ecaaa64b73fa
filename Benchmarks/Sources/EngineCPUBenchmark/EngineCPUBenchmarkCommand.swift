import ArcGISEngine
import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import Foundation
import Logging

/// `engine-cpu-benchmark`: the ArcGIS engine's own CPU per query, without Kafka or the worker. It runs
/// `--queries` count, ids or features queries through one `ArcGISEngine` in this process, `--concurrency` at a
/// time, against a layer of the sample feature server, and prints this process's CPU time (getrusage: user +
/// system, every thread) per query. Small enough to run under `valgrind --tool=callgrind`, whose instruction
/// counts stay stable on a busy machine where CPU time does not.
@main
struct EngineCPUBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine-cpu-benchmark",
        abstract: "CPU µs per count / ids / features query through the ArcGIS engine alone.")

    @Option(help: "The layer URL (…/LA_County_Parcels/FeatureServer/0 of the sample feature server).")
    var layer: String

    @Option(help: "Which queries: count, ids, features, or all (each in turn).")
    var kind: String = "all"

    @Option(help: "Measured queries per kind.")
    var queries: Int = 5_000

    @Option(help: "Uncounted queries first (they load the layer's metadata and warm the connections).")
    var warmups: Int = 500

    @Option(help: "Queries in flight.")
    var concurrency: Int = 64

    @Option(help: "Measured runs of each kind; the median is printed with the others.")
    var repetitions: Int = 3

    @Option(help: "Log level of the engine (standard error).")
    var logLevel: String = "warning"

    func validate() throws {
        guard queries > 0, warmups >= 0, concurrency > 0, repetitions > 0 else {
            throw ValidationError("--queries, --concurrency and --repetitions must be positive, --warmups not negative")
        }
        guard kind == "all" || EngineCPUWorkload.Kind(rawValue: kind) != nil else {
            throw ValidationError("--kind is count, ids, features or all")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "engine-cpu-benchmark")
        let kinds = EngineCPUWorkload.Kind(rawValue: kind).map { [$0] } ?? EngineCPUWorkload.Kind.allCases
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let engine = ArcGISEngine(httpClient: client, logger: logger)
        output("engine alone on \(layer): \(queries) queries per run (after \(warmups) uncounted), "
            + "\(concurrency) in flight, \(repetitions) runs per kind")
        output("kind      CPU µs/query (median; runs)        queries/s (median)   results per query")
        do {
            for kind in kinds {
                let workload = EngineCPUWorkload(kind: kind, layer: layer, engine: engine, concurrency: concurrency)
                _ = try await workload.measure(count: warmups)
                var runs: [EngineCPUWorkload.Figures] = []
                for _ in 0..<repetitions { runs.append(try await workload.measure(count: queries)) }
                let cpu = runs.map(\.cpuMicroseconds)
                let rate = runs.map(\.queriesPerSecond).sorted()[runs.count / 2]
                output(kind.rawValue.padding(10) + (format(median(cpu), 1) + " (" + cpu.map { format($0, 1) }.joined(separator: ", ") + ")").padding(35)
                    + format(rate, 0).padding(21) + format(runs[0].resultsPerQuery, 1))
            }
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
