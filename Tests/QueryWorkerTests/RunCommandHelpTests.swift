import ChildProcessFixture
import Testing
import WorkerTestSupport

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
