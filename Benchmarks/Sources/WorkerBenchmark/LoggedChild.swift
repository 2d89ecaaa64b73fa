import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A measured side's process: its stdout (and optionally stderr) to a log file, optionally pinned with
/// `taskset -c` (which execs the program in place, so the pid is the program's and `/proc/PID` describes it),
/// stopped with SIGTERM then SIGKILL. The worker, the Python peer and the C floor all start this way.
final class LoggedChild {
    let pid: Int32
    let logFile: String
    /// How errors name the process ("the worker", "the Python peer").
    let name: String
    private let process: Process

    /// Starts `arguments` (the program first); stderr goes to the log too when `stderrToLog`, else to ours.
    init(_ arguments: [String], cpus: String?, logFile: String, stderrToLog: Bool, name: String) throws {
        var arguments = arguments
        if let cpus { arguments = ["/usr/bin/taskset", "-c", cpus] + arguments }
        guard FileManager.default.createFile(atPath: logFile, contents: nil),
            let log = FileHandle(forWritingAtPath: logFile)
        else { throw BenchmarkError("cannot create \(logFile)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = log
        process.standardError = stderrToLog ? log : FileHandle.standardError
        try process.run()
        try? log.close()
        self.process = process
        self.pid = process.processIdentifier
        self.logFile = logFile
        self.name = name
    }

    var isRunning: Bool { process.isRunning }

    /// Fails when the process has exited (every side should serve until stopped).
    func checkAlive(_ what: String) throws {
        guard process.isRunning else {
            throw BenchmarkError("\(name) exited (status \(process.terminationStatus)) \(what); its log: \(logFile)")
        }
    }

    /// SIGTERM, then waits up to `timeout` for a graceful exit (polling: Foundation's `waitUntilExit()`
    /// spins a CPU on Linux), then SIGKILL. Returns the exit status (nil if it had to be killed).
    @discardableResult
    func stop(timeout: Duration) async -> Int32? {
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
