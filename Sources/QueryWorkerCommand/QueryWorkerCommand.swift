import ArgumentParser
import Foundation

@main
struct QueryWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query-worker",
        abstract: "Runs feature queries from Kafka against ArcGIS FeatureServer and MapServer layers and OGC API Features collections.",
        discussion: """
            Start with `query-worker demo`: an in-process Kafka cluster, a sample feature server and a worker, \
            running the seed queries. Against your own cluster: `query-worker run` is the worker, \
            `query-worker query --wait` sends it a request and prints the outcome (--result catalog lists what \
            a service offers), and `query-worker cancel` cancels a task's running request. `query-worker login` signs an \
            oauthUser credential in, `query-worker logout` signs it out.
            """,
        subcommands: [
            RunCommand.self, QueryCommand.self, CancelCommand.self, DemoCommand.self, EmbeddedKafkaCommand.self,
            ExportCommand.self, LoginCommand.self, LogoutCommand.self,
        ]
    )

    /// ArgumentParser's own `main`, except that a usage error exits with 1 rather than 64 (`EX_USAGE`):
    /// the documented statuses are 0, 1 (usage, Kafka, timeout), 2 (`query`'s error outcome) and 3 (`run`
    /// stopped by a fatal Kafka error), and
    /// scripts test `$? -eq 1`, not sysexits codes.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(1))
            }
            exit(withError: error)
        }
    }
}
