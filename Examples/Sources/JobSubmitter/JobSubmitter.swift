import FeatureQueryClient
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Publishes feature-query jobs with ``FeatureQueryClient`` and prints how each ended: what a service that asks
/// the workers for counts, ids or features does, in one file a team can copy.
@main
enum JobSubmitter {
    /// The exit status: a script running the example can tell a worker's answer from a client failure.
    enum ExitStatus: Int32 {
        case succeeded = 0
        /// A call threw: a job the worker would reject, a timeout, Kafka, shutdown, or a usage error.
        case clientError = 1
        /// The worker answered a job with an error outcome (`failed`, `rejected`, …).
        case errorOutcome = 2
    }

    static func main() async {
        // Logs to standard error, so that standard output holds only the outcome lines.
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let options: Options
        do throws(Options.UsageError) {
            guard let parsed = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
                print(Options.usage)
                return
            }
            options = parsed
        } catch {
            FileHandle.standardError.write(Data("job-submitter: \(error)\n\(Options.usage)\n".utf8))
            exit(ExitStatus.clientError.rawValue)
        }
        exit(await run(options).rawValue)
    }

    /// Runs the client in a `ServiceGroup` beside the run's calls, then shuts it down gracefully.
    ///
    /// SIGTERM or SIGINT shut the group down the same way: the client then ends every waiting call with
    /// `client_shutdown`, so the calls return, their lines are printed and the process exits 1, rather than
    /// being killed with jobs half-answered. Nonisolated (not on the main actor), so that the calls ``Run``
    /// starts register with the client before they first suspend.
    nonisolated static func run(_ options: Options) async -> ExitStatus {
        var logger = Logger(label: "job-submitter")
        logger.logLevel = .warning
        let client: FeatureQueryClient
        do {
            client = try FeatureQueryClient(
                configuration: .init(bootstrapServers: options.bootstrapServers, defaultTimeout: options.timeout),
                logger: logger)
        } catch {
            print(Report.line(for: error, requestId: "-", taskId: options.taskId))
            return .clientError
        }
        // Started before the client runs: calls wait until it reads its outcome topics, and `--supersede`'s two
        // calls are registered in order while nothing can be published yet.
        let calls = Run.start(options, client)
        let group = ServiceGroup(services: [client], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        async let running: Void = group.run()
        let reports = await calls.value
        for report in reports { print(report.line) }
        await group.triggerGracefulShutdown()
        var status = Report.exitStatus(reports)
        do {
            try await running
        } catch {
            // The client could not work (the outcome topics could not be read): its calls said so already.
            FileHandle.standardError.write(Data("job-submitter: the client stopped: \(error)\n".utf8))
            status = .clientError
        }
        return status
    }
}
