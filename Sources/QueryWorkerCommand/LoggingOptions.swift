public import ArgumentParser
import Foundation
public import Logging

/// Logging flags shared by the subcommands. Logs go to standard error so that standard output stays free
/// for what a command prints for scripts (the bootstrap list, outcomes).
struct LoggingOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func makeLogger(label: String) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Prints a line to standard output and flushes it at once: a script reads the first line while we run.
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
