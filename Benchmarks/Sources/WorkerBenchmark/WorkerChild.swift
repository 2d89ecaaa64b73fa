import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One `query-worker run` child process: JSON logs to a file, optionally pinned with `taskset`, stopped
/// with SIGTERM.
///
/// `taskset` execs the worker in place, so the process id is the worker's and `/proc/PID` describes it.
final class WorkerChild {
    /// What the worker is started with.
    struct Configuration {
        var queryWorker: String
        var bootstrapServers: String
        var groupID: String
        var topics: BenchmarkTopics
        var maxInFlight: Int
        /// `taskset -c` CPU list, or nil.
        var cpus: String?
        var logFile: String
        /// Further `--set key=value` settings.
        var extraSettings: [String] = []
        /// A credentials file (`--credentials-file`), or nil for none.
        var credentialsFile: String? = nil
    }

    let pid: Int32
    let logFile: String
    private let process: Process

    /// Starts the worker; it joins its group in the background.
    init(_ configuration: Configuration) throws {
        var arguments = [
            configuration.queryWorker, "run",
            "--bootstrap-servers", configuration.bootstrapServers,
            "--group-id", configuration.groupID,
            "--allowed-hosts", "127.0.0.1",
            "--max-in-flight", String(configuration.maxInFlight),
            "--shutdown-timeout", "1s",
            "--log-level", "info",
            "--set", "topics.requests=\(configuration.topics.requests)",
            "--set", "topics.results=\(configuration.topics.results)",
            "--set", "topics.errors=\(configuration.topics.errors)",
            "--set", "workerId=bench-worker",
            "--set", "summaryInterval=0s",
        ]
        for setting in configuration.extraSettings { arguments += ["--set", setting] }
        if let file = configuration.credentialsFile { arguments += ["--credentials-file", file] }
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
        self.pid = process.processIdentifier
        self.logFile = configuration.logFile
    }

    var isRunning: Bool { process.isRunning }

    /// SIGTERM, then waits up to `timeout` for a graceful exit (polling: Foundation's `waitUntilExit()`
    /// spins a CPU on Linux), then SIGKILL. Returns the exit status (nil if it had to be killed).
    @discardableResult
    func stop(timeout: Duration = .seconds(30)) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return nil
    }

    /// Fails when the worker has exited (it should serve until stopped).
    func checkAlive(_ what: String) throws {
        guard process.isRunning else {
            throw BenchmarkError("the worker exited (status \(process.terminationStatus)) \(what); its log: \(logFile)")
        }
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
