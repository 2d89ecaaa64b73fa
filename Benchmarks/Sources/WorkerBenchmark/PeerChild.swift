import BenchmarkSupport
import Foundation

/// A worker process the CPU benchmark measures: `query-worker run` or the Python peer.
protocol MeasuredWorker: AnyObject {
    var pid: Int32 { get }
    /// Where the process's JSON log lines go.
    var logFile: String { get }
    func checkAlive(_ what: String) throws
    @discardableResult func stop(timeout: Duration) async -> Int32?
}

extension WorkerChild: MeasuredWorker {}

/// A peer the CPU benchmark measures beside the worker, as a child process: the Python peer
/// (`Benchmarks/python/peer_worker.py`, aiokafka + aiohttp) or the C floor (`Benchmarks/c/floor_worker.c`:
/// librdkafka + libcurl multi, one thread, `count`, `ids` and `features`, what the two libraries the worker is
/// built on cost per request when the leanest C program drives them). Both take the same arguments; JSON log lines go to a file,
/// optionally pinned with `taskset`, stopped with SIGTERM.
final class PeerChild: MeasuredWorker {
    /// Which peer runs.
    enum Program {
        case python(interpreter: String, script: String)
        /// The compiled `floor_worker` (run-worker-benchmark.sh builds it into Benchmarks/bin).
        case floor(executable: String)
    }

    /// What the peer is started with.
    struct Configuration {
        var program: Program
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
        var arguments = [
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--requests-topic", configuration.topics.requests,
            "--results-topic", configuration.topics.results,
            "--max-in-flight", String(configuration.maxInFlight),
        ]
        switch configuration.program {
        case .python(let interpreter, let script):
            child = try LoggedChild(
                [interpreter, script] + arguments, cpus: configuration.cpus, logFile: configuration.logFile,
                stderrToLog: true, name: "the Python peer")
        case .floor(let executable):
            // The worker's fetch wait on the embedded cluster (EmbeddedKafkaCluster.fetchWaitMax).
            arguments += ["--fetch-wait-max-ms", "2"]
            child = try LoggedChild(
                [executable] + arguments, cpus: configuration.cpus, logFile: configuration.logFile,
                stderrToLog: false, name: "the C floor")
        }
    }

    func checkAlive(_ what: String) throws { try child.checkAlive(what) }

    /// SIGTERM, then up to `timeout` for the exit, then SIGKILL.
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) async -> Int32? { await child.stop(timeout: timeout) }
}
