import Foundation
import Synchronization

/// A long-running child (postgres, pygeoapi, nginx, apache2, krb5kdc) started under a small bash watchdog whose standard input is a
/// pipe this process holds: when the pipe closes (``stop()``, or the test process dying in any way, even by
/// SIGKILL) the watchdog signals the child, waits for it and removes the directories it was given. No server
/// outlives the test process that started it, and no pid files are needed.
///
/// Output goes to files (a chatty child can't block on a full pipe); waiting is async, so a test never holds
/// one of the few cooperative threads.
package final class WatchedProcess: Sendable {
    /// The watchdog: `$1` the signal that stops the child, `$2` a colon-separated list of directories to
    /// remove once it has exited, the rest the child's command. The child leads a session of its own
    /// (`setsid`), and the signal goes to its whole process group: a launcher script's current step (initdb, say)
    /// stops with it. `read` returns 1 at end of input (stop) and
    /// more than 128 on its one-second timeout (check the child is still alive, keep waiting).
    private static let watchdog = """
        signal=$1; cleanup=$2; shift 2
        setsid "$@" </dev/null &
        child=$!
        while kill -0 "$child" 2>/dev/null; do
            read -r -t 1 _; status=$?
            if (( status > 0 && status <= 128 )); then break; fi
        done
        kill -"$signal" -- -"$child" 2>/dev/null
        wait "$child"; code=$?
        IFS=: read -r -a directories <<<"$cleanup"
        for directory in "${directories[@]}"; do [[ -n "$directory" ]] && rm -rf -- "$directory"; done
        exit "$code"
        """

    package let name: String
    package let logPath: String
    private let process: Process
    private let control: FileHandle
    private let exited = ExitFlag()

    /// Starts `arguments[0]` with the rest as its arguments. `prefix` runs before the watchdog (e.g.
    /// `setpriv` to run as another user, so the watchdog can signal a child of the same user).
    package init(
        name: String, _ arguments: [String], prefix: [String] = [], stopSignal: String = "TERM",
        removeOnExit: [String] = [], environment: [String: String]? = nil, logDirectory: String
    ) throws {
        self.name = name
        logPath = "\(logDirectory)/\(name).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let pipe = Pipe()
        let process = Process()
        let launcher = prefix + ["/bin/bash", "-c", Self.watchdog, "watchdog", stopSignal, removeOnExit.joined(separator: ":")]
        process.executableURL = URL(fileURLWithPath: launcher.first ?? "/bin/bash")
        process.arguments = Array(launcher.dropFirst()) + arguments
        if let environment { process.environment = environment }
        process.standardInput = pipe.fileHandleForReading
        process.standardOutput = log
        process.standardError = log
        self.process = process
        control = pipe.fileHandleForWriting
        let exited = exited
        process.terminationHandler = { _ in exited.set() }
        defer {
            // The child has its own copies; this process keeps only the control pipe's write end.
            try? log.close()
            try? pipe.fileHandleForReading.close()
        }
        try ChildProcesses.spawn(process)
    }

    package var isRunning: Bool { !exited.isSet }

    /// What the child (and the watchdog) wrote so far.
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Closes the control pipe (the watchdog stops the child and removes its directories) and waits up to
    /// `timeout` for it to be gone; after that the watchdog is killed (the child may then linger).
    package func stop(timeout: Duration = .seconds(20)) async {
        try? control.close()
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Set once by the termination handler (another thread), read by the waiters.
private final class ExitFlag: Sendable {
    private let mutex = Mutex(false)

    func set() { mutex.withLock { $0 = true } }

    var isSet: Bool { mutex.withLock { $0 } }
}
