import Foundation
import Glibc
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
    private let child: SpawnedChild
    /// The write end of the watchdog's standard input; closing it stops the child.
    private let control: Mutex<Int32?>

    /// Starts `arguments[0]` with the rest as its arguments. `prefix` runs before the watchdog (e.g.
    /// `setpriv` to run as another user, so the watchdog can signal a child of the same user).
    package init(
        name: String, _ arguments: [String], prefix: [String] = [], stopSignal: String = "TERM",
        removeOnExit: [String] = [], environment: [String: String]? = nil, logDirectory: String
    ) throws {
        self.name = name
        logPath = "\(logDirectory)/\(name).log"
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw ChildProcessFailure("cannot open \(logPath): errno \(errno)") }
        defer { close(log) }  // the child has its own copy
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ChildProcessFailure("pipe failed: errno \(errno)") }
        // Close-on-exec, so no other child inherits the pipe and keeps the watchdog's input open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }  // the read end is the watchdog's alone
        let launcher = prefix + ["/bin/bash", "-c", Self.watchdog, "watchdog", stopSignal, removeOnExit.joined(separator: ":")]
        do {
            child = try SpawnedChild(
                launcher + arguments, environment: environment, standardInput: ends[0], standardOutput: log, standardError: log)
        } catch {
            close(ends[1])
            throw error
        }
        control = Mutex(ends[1])
    }

    package var isRunning: Bool { child.isRunning }

    /// How the child ended (the watchdog exits with the child's status), or nil while it runs.
    package var termination: SpawnedChild.Termination? { child.termination }

    /// What the child (and the watchdog) wrote so far.
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Closes the control pipe (the watchdog stops the child and removes its directories) and waits up to
    /// `timeout` for it to be gone; after that the watchdog is killed (the child may then linger).
    package func stop(timeout: Duration = .seconds(20)) async {
        control.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
        if await child.waitForExit(timeout: timeout) == nil { child.signal(SIGKILL) }
    }

    deinit {
        // The test process going away closes it too; a fixture dropped without stop() stops its child here.
        control.withLock { descriptor in
            if let open = descriptor { close(open) }
        }
    }
}
