import Foundation
import Glibc

/// A long-running child (postgres, pygeoapi, nginx, apache2, krb5kdc) started under a small bash watchdog that
/// stops it when ``stop()`` signals the watchdog, or when the test process is gone, however it went (even by
/// SIGKILL): the watchdog signals the child, waits for it and removes the directories it was given. No server
/// outlives the test process that started it, and no pid files are needed.
///
/// The watchdog looks for the test process by its pid, once a second. (It used to read a pipe the test process
/// held and stop at its end; a descriptor closed twice elsewhere in a busy test process can close that pipe too,
/// and servers then died at start with nothing in their logs.)
///
/// Output goes to files (a chatty child can't block on a full pipe); waiting is async, so a test never holds
/// one of the few cooperative threads.
package final class WatchedProcess: Sendable {
    /// The watchdog: `$1` the signal that stops the child, `$2` a colon-separated list of directories to
    /// remove once it has exited (kept when it failed on its own, with its log, which often lives there), `$3` the test process's pid, the rest the child's command. The child leads a
    /// session of its own (`setsid`), and the signal goes to its whole process group: a launcher script's current
    /// step (initdb, say) stops with it. SIGTERM to the watchdog is ``stop()``: its trap ends the wait at once.
    /// The test process is looked for in /proc, which works whatever user the watchdog runs as.
    private static let watchdog = """
        signal=$1; cleanup=$2; parent=$3; shift 3
        stopping=0
        trap 'stopping=1' TERM
        setsid "$@" </dev/null &
        child=$!
        while (( stopping == 0 )) && kill -0 "$child" 2>/dev/null && [[ -d /proc/$parent ]]; do
            sleep 1 &
            wait $!
        done
        if (( stopping == 0 )) && kill -0 "$child" 2>/dev/null; then echo "watchdog: the test process $parent is gone" >&2; fi
        kill -"$signal" -- -"$child" 2>/dev/null
        wait "$child"; code=$?
        echo "watchdog: the server ended with status $code$( (( stopping )) && echo ', as asked')" >&2
        if (( stopping == 0 && code != 0 )); then
            echo "watchdog: kept $cleanup (a server that failed on its own keeps its files and log)" >&2
        else
            IFS=: read -r -a directories <<<"$cleanup"
            for directory in "${directories[@]}"; do [[ -n "$directory" ]] && rm -rf -- "$directory"; done
        fi
        exit "$code"
        """
    package let name: String
    package let logPath: String
    private let child: SpawnedChild

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
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ChildProcessFailure("cannot open /dev/null: errno \(errno)") }
        defer { close(input) }
        let launcher = prefix + [
            "/bin/bash", "-c", Self.watchdog, "watchdog", stopSignal, removeOnExit.joined(separator: ":"), String(getpid()),
        ]
        // A process group of its own: only ``stop()`` (or the test process's end) stops the server.
        child = try SpawnedChild(
            launcher + arguments, environment: environment, standardInput: input, standardOutput: log, standardError: log,
            ownProcessGroup: true)
    }

    package var isRunning: Bool { child.isRunning }

    /// How the child ended (the watchdog exits with the child's status), or nil while it runs.
    package var termination: SpawnedChild.Termination? { child.termination }

    /// What the child (and the watchdog) wrote so far; once it has ended, how it ended (a watchdog killed from
    /// outside says so here, having had no chance to write).
    package var log: String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        guard let termination = child.termination else { return text }
        return text + "[\(name): the watchdog ended: \(termination)]"
    }

    /// Signals the watchdog (it stops the child and removes its directories) and waits up to `timeout` for it to
    /// be gone; after that the watchdog is killed (the child may then linger).
    package func stop(timeout: Duration = .seconds(20)) async {
        child.signal(SIGTERM)
        if await child.waitForExit(timeout: timeout) == nil { child.signal(SIGKILL) }
    }

    deinit {
        // A fixture dropped without stop() stops its child here (the test process ending stops it too).
        child.signal(SIGTERM)
    }
}
