import ArgumentParser
import Logging

/// `worker-benchmark`: the query worker end to end (Kafka in, the sample feature server, Kafka out) against
/// peers measured in the same run. Run it through `Benchmarks/run-worker-benchmark.sh`, which builds
/// `query-worker` and `sample-feature-server`, starts the servers pinned to one CPU and calls the
/// subcommands in turn.
///
/// The worker always runs as a `query-worker run` child process (the `QueryWorker` module is not a product
/// of the main package, so it cannot be linked here), against a librdkafka mock cluster served from this
/// process over loopback TCP.
@main
struct WorkerBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker-benchmark",
        abstract: "The query worker end to end against wrk, the raw engine and the sample server.",
        subcommands: [
            ThroughputBenchmark.self, SupersessionBenchmark.self, MemoryBenchmark.self, CredentialsBenchmark.self,
            CPUBenchmark.self, ScaleBenchmark.self, LatencyBenchmark.self,
        ]
    )
}

/// What every subcommand needs: the worker binary, how often to measure, CPUs, strictness.
struct CommonOptions: ParsableArguments {
    @Option(help: "The query-worker executable (built in release).")
    var queryWorker: String

    @Option(help: "Measured repetitions per side; the tables show medians.")
    var repetitions: Int = 3

    @Option(name: .customLong("worker-cpus"), help: "CPUs (taskset -c list) for the worker child processes; empty: unpinned.")
    var workerCPUs: String = ""

    @Option(help: "Log level of this driver (standard error). The worker always logs JSON lines at info to a file.")
    var logLevel: String = "warning"

    @Option(help: "A folder for the worker's logs; default: a new folder under /tmp, removed at the end.")
    var workDir: String?

    @Flag(help: "Exit with status 1 when a target is missed.")
    var strict = false

    func validate() throws {
        guard repetitions > 0 else { throw ValidationError("--repetitions must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    /// The driver's logger (standard error), bootstrapped once.
    func makeLogger() -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "worker-benchmark")
    }

    /// The CPU list for child processes, or nil when unpinned.
    var pinning: String? { workerCPUs.isEmpty ? nil : workerCPUs }
}
