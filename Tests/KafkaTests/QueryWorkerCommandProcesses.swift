import ChildProcessFixture
import Foundation
import Glibc

/// A long-running child (`embedded-kafka`, `sample-feature-server`, `run`) for the command tests: started,
/// its first line of standard output read (the bootstrap list or the services URL), stopped with SIGTERM.
final class CommandChild: Sendable {
    private let child: CapturedChild
    /// The first line of standard output, when the child prints one (`nil` if it ended first).
    let firstLine: String?

    private init(child: CapturedChild, firstLine: String?) {
        self.child = child
        self.firstLine = firstLine
    }

    /// `environment` is added to this process's (`nil`: inherited as it is).
    static func start(
        _ executable: String, _ arguments: [String], readsFirstLine: Bool = true, environment: [String: String]? = nil
    ) throws -> CommandChild {
        // SpawnedChild empties the child's signal mask: the cooperative threads block SIGTERM, and a child that
        // inherited that mask never saw the SIGTERM that stops it (the OTLP receiver, a Python process, did not).
        let child = try CapturedChild([executable] + arguments, environment: environment.map { .adding($0) } ?? .inherited)
        let line = readsFirstLine ? child.firstLine(timeout: .seconds(60)) : nil
        return CommandChild(child: child, firstLine: line)
    }

    /// Sends SIGTERM and waits for the exit, at most `grace`, then SIGKILL; returns the exit status (a signal's
    /// number if it was killed). A child that does not stop on SIGTERM (one that inherited it ignored, or hangs in
    /// its shutdown) then fails the test that expected a clean exit instead of hanging the whole run in a `defer`.
    @discardableResult
    func terminate(grace: Duration = .seconds(60)) -> Int32 {
        let process = child.process
        if process.isRunning {
            process.signal(SIGTERM)
            if process.waitForExitBlocking(timeout: grace) == nil { _ = process.killAndWait() }
        }
        return process.status ?? -1
    }

    /// Whether the child exited by itself with status 0 (after ``terminate(grace:)``).
    var exitedCleanly: Bool { child.process.termination == .exited(0) }

    /// For `defer`: SIGTERM if still running, then wait.
    func stop() {
        _ = terminate()
    }
}

/// What a command printed and how it exited.
typealias CommandOutput = ChildOutput

extension ChildOutput {
    /// Runs a command to its end without blocking a thread of the cooperative pool, so several can run at once;
    /// stopped after `timeout`. `environment` is added to this process's (`nil`: inherited as it is).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(90)
    ) async throws -> CommandOutput {
        try await ChildProcesses.complete(
            [executable] + arguments, environment: environment.map { .adding($0) } ?? .inherited, timeout: timeout)
    }
}
