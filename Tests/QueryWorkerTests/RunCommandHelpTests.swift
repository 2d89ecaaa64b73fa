import Foundation
import Synchronization
import Testing

@testable import QueryWorker

/// `query-worker run --help` is the reference for every setting: each key of ``SettingsKey/all`` has a flag
/// listed with its environment variable, file key and default, and each flag reaches its setting. Runs the
/// built executable, as a user would.
@Suite("query-worker run: every setting has a documented flag")
struct RunCommandHelpTests {
    @Test func helpListsEveryKeyWithItsFlagVariableFileKeyAndDefault() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let help = try await CommandRun.run(executable, ["run", "--help"])
        #expect(help.status == 0, "\(help)")
        // ArgumentParser wraps help text at the terminal width: compare with the white space collapsed.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in SettingsKey.all {
            // An option line (`--max-in-flight <n>`), not a mention in prose: the flag exists.
            #expect(text.contains("\(key.flag) <"), "no option for \(key.name)")
            #expect(text.contains(
                "Environment: \(key.environmentVariable); file key: \(key.name); default: \(key.defaultText)."),
                "\(key.name) is not documented in:\n\(help.stdout)")
        }
        for flag in ["--kafka <property=value>", "--named-query <name=clause>", "--set <key=value>", "--config-file <path>"] {
            #expect(text.contains(flag), "no \(flag)")
        }
    }

    /// A value no key accepts: each flag must reach its own key, so the error names that flag.
    @Test(arguments: SettingsKey.all)
    func eachFlagReachesItsSetting(key: SettingsKey) async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let output = try await CommandRun.run(executable, ["run", key.flag, "not valid!"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains("\(key.flag)='not valid!' (flag)"), "\(output)")
    }

    @Test func everyKeyHasADefaultText() {
        #expect(Set(SettingsKey.defaultTexts.keys) == Set(SettingsKey.all.map(\.name)))
        #expect(SettingsKey.sizeText(1_048_576) == "1MiB" && SettingsKey.sizeText(1_000) == "1000")
        #expect(SettingsKey.durationText(.seconds(30)) == "30s" && SettingsKey.durationText(.milliseconds(250)) == "250ms")
    }
}

/// Runs a command to its end, awaiting its exit without holding a thread, with no `QUERY_WORKER_*`
/// variables of the test's environment (they would be settings too).
enum CommandRun {
    struct Output: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(SettingsKey.environmentPrefix) }
        let files = try ProcessOutputFiles(for: process)
        defer { files.remove() }
        let exited = ExitSignal()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        await exited.wait()
        return Output(status: process.terminationStatus, stdout: files.stdout, stderr: files.stderr)
    }
}

/// A one-time signal a task can await, set from any thread (a process's termination handler).
final class ExitSignal: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state in
            state.signalled = true
            return state.waiter.take()
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state in
                if !state.signalled { state.waiter = continuation }
                return state.signalled
            }
            if signalled { continuation.resume() }
        }
    }
}
