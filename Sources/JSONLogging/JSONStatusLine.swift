import FeatureQuerySupport
package import Logging

/// A log line whose fields the caller writes straight into its bytes: the same line
/// ``JSONLogHandler/line(for:)`` writes for a `Logger` call with `.string` (and `.array` of `.string`) metadata,
/// without the metadata dictionary, its sort, the `LogEvent` and the intermediate strings.
///
/// For the lines a worker writes for every request (received, started, answered), which are most of its log
/// volume. The caller writes fields in the order the handler would (ascending by key, a reserved key such as
/// `error` sorted under its own name and written as `meta_error`), and only keys that name no secret (values are
/// redacted as the handler does; debug builds check both). `WorkerEventsLineTests` compares each line with the
/// handler's own.
package struct JSONStatusLine {
    private var line: JSONWriter
    private let sink: JSONLogSink
    private let urgent: Bool
    #if DEBUG
    private var lastKey = ""
    #endif

    /// What lines need of their handler, resolved once by whoever writes many of them: a handler copied to
    /// start each line retained every member it has (its metadata, provider, label and sink), and the worker's
    /// three lines per request made that a visible share of its reference counting. A class, so that holding
    /// one and starting a line from it is one retain.
    package final class Origin: Sendable {
        let sink: JSONLogSink
        let label: String
        let logLevel: Logger.Level

        /// The origin of `handler`'s lines, or `nil` when it has metadata of its own or a metadata provider
        /// (whose members a caller could not order): the caller then logs through its `Logger`.
        package init?(_ handler: JSONLogHandler) {
            guard handler.metadata.isEmpty, handler.metadataProvider == nil else { return nil }
            sink = handler.sink
            label = handler.label
            logLevel = handler.logLevel
        }
    }

    /// A line from a resolved ``Origin``, or `nil` when its handler would not log at `level` (the caller then logs
    /// through its `Logger`). The message must be one that redaction leaves as it is (a fixed word).
    package init?(_ origin: Origin, level: Logger.Level, message: String) {
        guard origin.logLevel <= level else { return nil }
        self.sink = origin.sink
        self.urgent = level >= .warning
        assert(LogRedaction.redact(message) == message, "a status line's message is a fixed word")
        line = JSONWriter.logLine(level: level, label: origin.label, message: message)
    }

    /// A string member, redacted like any metadata string.
    package mutating func string(_ key: String, _ value: String) {
        member(key)
        line.string(LogRedaction.redact(value))
    }

    /// An integer written as a JSON string (`"partition":"3"`), as `.string(String(value))` metadata is:
    /// without making the string.
    package mutating func integerString(_ key: String, _ value: Int64) {
        member(key)
        line.quotedInteger(value)
    }

    package mutating func integerString(_ key: String, _ value: UInt64) {
        member(key)
        line.quotedInteger(value)
    }

    /// Integers as an array of JSON strings (`"counts":["5","0"]`), as `.array` of `.string` metadata is.
    ///
    /// An array, not any sequence: this module's generic code is not specialized for its callers, and iterating
    /// a lazy map through metadata lookups cost more than the array does.
    package mutating func integerStrings(_ key: String, _ values: [Int]) {
        member(key)
        line.byte(UInt8(ascii: "["))
        for value in values {
            line.separator()
            line.quotedInteger(Int64(value))
        }
        line.byte(UInt8(ascii: "]"))
    }

    /// Ends the line and hands it to the handler's sink.
    package consuming func write() {
        sink.write(line.endingLogLine(), urgent: urgent)
    }

    private mutating func member(_ key: String) {
        #if DEBUG
        assert(lastKey.isEmpty || lastKey < key, "status line members in ascending key order: \(lastKey), \(key)")
        assert(!LogRedaction.isSensitiveKey(key), "a status line key names no secret: \(key)")
        lastKey = key
        #endif
        line.member(JSONLogHandler.isReserved(key) ? "meta_" + key : key)
    }
}
