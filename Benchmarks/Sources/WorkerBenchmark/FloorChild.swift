import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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

    let pid: Int32
    let logFile: String
    private let process: Process

    init(_ configuration: Configuration) throws {
        var arguments = [
            configuration.executable,
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--requests-topic", configuration.topics.requests,
            "--results-topic", configuration.topics.results,
            "--max-in-flight", String(configuration.maxInFlight),
            // The worker's fetch wait on the embedded cluster (EmbeddedKafkaCluster.fetchWaitMax).
            "--fetch-wait-max-ms", "2",
        ]
        if let cpus = configuration.cpus { arguments = ["/usr/bin/taskset", "-c", cpus] + arguments }
        guard FileManager.default.createFile(atPath: configuration.logFile, contents: nil),
            let log = FileHandle(forWritingAtPath: configuration.logFile)
        else { throw BenchmarkError("cannot create \(configuration.logFile)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = log
        process.standardError = FileHandle.standardError
        try process.run()
        try? log.close()
        self.process = process
        pid = process.processIdentifier
        logFile = configuration.logFile
    }

    func checkAlive(_ what: String) throws {
        guard process.isRunning else {
            throw BenchmarkError("the C floor exited (status \(process.terminationStatus)) \(what); its log: \(logFile)")
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
