import BenchmarkSupport
import Foundation

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
        /// Further command-line arguments (`--ops-port 19391`, `--otlp-endpoint URL`).
        var extraArguments: [String] = []
    }

    private let child: LoggedChild
    var pid: Int32 { child.pid }
    var logFile: String { child.logFile }

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
        arguments += configuration.extraArguments
        child = try LoggedChild(
            arguments, cpus: configuration.cpus, logFile: configuration.logFile, stderrToLog: false, name: "the worker")
    }

    var isRunning: Bool { child.isRunning }

    /// SIGTERM, then up to `timeout` for a graceful exit, then SIGKILL; the exit status (nil if killed).
    @discardableResult
    func stop(timeout: Duration = .seconds(30)) async -> Int32? { await child.stop(timeout: timeout) }

    /// Fails when the worker has exited (it should serve until stopped).
    func checkAlive(_ what: String) throws { try child.checkAlive(what) }
}
