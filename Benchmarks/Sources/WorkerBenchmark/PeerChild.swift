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

/// The Python peer (`Benchmarks/python/peer_worker.py`, aiokafka + aiohttp) as a child process: JSON log
/// lines to a file, optionally pinned with `taskset` (which execs Python in place, so the pid is Python's),
/// stopped with SIGTERM.
final class PeerChild: MeasuredWorker {
    /// What the peer is started with.
    struct Configuration {
        var python: String
        var script: String
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
            configuration.python, configuration.script,
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--requests-topic", configuration.topics.requests,
            "--results-topic", configuration.topics.results,
            "--max-in-flight", String(configuration.maxInFlight),
        ]
        child = try LoggedChild(
            arguments, cpus: configuration.cpus, logFile: configuration.logFile, stderrToLog: true, name: "the Python peer")
    }

    func checkAlive(_ what: String) throws { try child.checkAlive(what) }

    /// SIGTERM, then up to `timeout` for the exit, then SIGKILL.
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) async -> Int32? { await child.stop(timeout: timeout) }
}
