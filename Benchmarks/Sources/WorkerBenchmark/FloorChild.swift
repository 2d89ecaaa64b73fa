import BenchmarkSupport
import Foundation

/// The C floor (`Benchmarks/c/floor_worker.c`: librdkafka + libcurl multi, one thread, `count` only) as a child
/// process of the CPU benchmark: what the two libraries the worker is built on cost per request when the
/// leanest C program drives them. JSON log lines to a file, optionally pinned with `taskset` (which execs it in
/// place, so the pid is the floor's), stopped with SIGTERM.
final class FloorChild: MeasuredWorker {
    /// What the floor is started with.
    struct Configuration {
        /// The compiled `floor_worker` (run-worker-benchmark.sh builds it into Benchmarks/bin).
        var executable: String
        var bootstrapServers: String
        var groupID: String
        var topics: BenchmarkTopics
        var maxInFlight: Int
        /// `taskset -c` CPU list, or nil.
        var cpus: String?
        var logFile: String
    }

    private let child: LoggedChild
    var pid: Int32 { child.pid }
    var logFile: String { child.logFile }

    init(_ configuration: Configuration) throws {
        let arguments = [
            configuration.executable,
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--requests-topic", configuration.topics.requests,
            "--results-topic", configuration.topics.results,
            "--max-in-flight", String(configuration.maxInFlight),
            // The worker's fetch wait on the embedded cluster (EmbeddedKafkaCluster.fetchWaitMax).
            "--fetch-wait-max-ms", "2",
        ]
        child = try LoggedChild(
            arguments, cpus: configuration.cpus, logFile: configuration.logFile, stderrToLog: false, name: "the C floor")
    }

    func checkAlive(_ what: String) throws { try child.checkAlive(what) }

    /// SIGTERM, then up to `timeout` for the exit, then SIGKILL.
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) async -> Int32? { await child.stop(timeout: timeout) }
}
