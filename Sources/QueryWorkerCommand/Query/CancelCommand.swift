import ArgumentParser
import Foundation
import Logging
import QueryWorker

/// `query-worker cancel`: publish the contract's cancel message for a task.
///
/// A cancel has no outcome of its own: the task's in-flight request is answered `cancelled`
/// (`cancel_requested`), which `query --wait` in another shell prints. So this command only publishes, and says
/// where to look.
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a task's in-flight request(s).",
        discussion: """
            Publishes {"taskId": ID, "cancel": true} on the requests topic, keyed by the taskId, as the message \
            contract's "Cancel" section describes. Each request of the task a worker is running is answered \
            `cancelled` with code cancel_requested; a task with nothing in flight is left alone, and a request \
            for the task published afterwards runs normally. The cancel itself gets no outcome.

            Example: query-worker cancel --bootstrap-servers 127.0.0.1:9092 --task-id map-view-1

            Exit status: 0 when the cancel was published; 1 for a usage or Kafka error.
            """
    )

    @Option(help: "The task to cancel: the taskId of its requests (a request without taskId has its requestId as taskId).")
    var taskId: String

    @OptionGroup(title: "Kafka")
    var kafkaOptions: KafkaOptions

    @Flag(help: "Print the cancel message as published instead of the taskId.")
    var json = false

    @Option(help: "Log level (logs go to standard error): trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(.warning)

    func validate() throws {
        guard (1...128).contains(taskId.unicodeScalars.count) else {
            throw ValidationError("--task-id has 1 to 128 characters")
        }
    }

    func run() async throws {
        let logger = StandardErrorLogging.logger(label: "query-worker.cancel", level: logLevel.level)
        let kafka = try kafkaOptions.settings()
        try await QueryClientSession(kafka: kafka, logger: logger).cancel(taskId: taskId)
        printLine(json ? String(decoding: try CheckedJob.cancelValue(taskId: taskId), as: UTF8.self) : taskId)
    }
}
