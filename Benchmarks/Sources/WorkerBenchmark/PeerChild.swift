import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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

    let pid: Int32
    let logFile: String
    private let process: Process

    init(_ configuration: Configuration) throws {
        var arguments = [
            configuration.python, configuration.script,
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--requests-topic", configuration.topics.requests,
            "--results-topic", configuration.topics.results,
            "--max-in-flight", String(configuration.maxInFlight),
        ]
        if let cpus = configuration.cpus { arguments = ["/usr/bin/taskset", "-c", cpus] + arguments }
        guard FileManager.default.createFile(atPath: configuration.logFile, contents: nil),
            let log = FileHandle(forWritingAtPath: configuration.logFile)
        else { throw BenchmarkError("cannot create \(configuration.logFile)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try? log.close()
        self.process = process
        pid = process.processIdentifier
        logFile = configuration.logFile
    }

    func checkAlive(_ what: String) throws {
        guard process.isRunning else {
            throw BenchmarkError("the Python peer exited (status \(process.terminationStatus)) \(what); its log: \(logFile)")
        }
    }

    /// SIGTERM, up to `timeout` for the exit (polled: Foundation's `waitUntilExit()` spins on Linux), then SIGKILL.
    @discardableResult
    func stop(timeout: Duration = .seconds(10)) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return nil
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
