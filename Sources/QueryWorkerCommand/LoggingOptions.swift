import ArgumentParser
import Foundation
import Logging

/// Logging flags shared by the subcommands. Logs go to standard error so that standard output stays free
/// for what a command prints for scripts (the bootstrap list, outcomes).
struct LoggingOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(.info)

    func makeLogger(label: String) -> Logger {
        StandardErrorLogging.logger(label: label, level: logLevel.level)
    }
}

/// Readable log lines on standard error, for the commands whose standard output is for people or scripts
/// (`query`, `demo`, `embedded-kafka`); `run` writes JSON lines instead.
enum StandardErrorLogging {
    static func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
}

/// A `--log-level` value: a `Logger.Level` by its name. A wrapper, because conforming `Logger.Level` itself to
/// `ExpressibleByArgument` would be a public conformance, which needs both modules imported publicly; `--help`
/// lists the same values and default as that conformance did.
struct LogLevelArgument: ExpressibleByArgument, Sendable {
    var level: Logger.Level

    init(_ level: Logger.Level) { self.level = level }

    init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument) else { return nil }
        self.level = level
    }

    var defaultValueDescription: String { level.rawValue }
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Prints a line to standard output and flushes it at once: a script reads the first line while we run.
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Prints a line to standard error: messages for the person at the terminal that scripts reading standard
/// output should not see.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A failure a command reports in one sentence and exits 1 on: no usage text, since the arguments were
/// fine (Kafka unreachable, a request a worker would reject, bad settings in the environment).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
