package import Logging

/// A log line whose fields the caller writes straight into its bytes: the same line
/// ``JSONLogHandler/line(for:)`` writes for a `Logger` call with `.string` (and `.array` of `.string`) metadata,
/// without the metadata dictionary, its sort, the `LogEvent` and the intermediate strings.
///
/// For the lines a worker writes for every request (received, started, answered), which are most of its log
/// volume. The caller writes fields in the order the handler would (ascending by key, a reserved key such as
/// `error` sorted under its own name and written as `meta_error`), and only keys that name no secret (values are
/// redacted as the handler does; debug builds check both). `JSONStatusLineTests` compares each line with the
/// handler's own.
package struct JSONStatusLine {
    private var buffer: JSONLineBuffer
    private let sink: JSONLogSink
    private let urgent: Bool
    #if DEBUG
    private var lastKey = ""
    #endif

    /// A line for `handler`, or `nil` when the handler would not log at `level`, or when it has metadata of its
    /// own or a metadata provider (whose members the caller could not order): the caller then logs through
    /// its `Logger`. The message must be one that redaction leaves as it is (a fixed word).
    package init?(_ handler: JSONLogHandler, level: Logger.Level, message: String) {
        guard handler.logLevel <= level, handler.metadata.isEmpty, handler.metadataProvider == nil else { return nil }
        self.sink = handler.sink
        self.urgent = level >= .warning
        buffer = JSONLineBuffer()
        buffer.key("ts")
        buffer.timestamp()
        buffer.key("level")
        buffer.string(level.rawValue)
        buffer.key("label")
        buffer.string(handler.label)
        buffer.key("message")
        assert(LogRedaction.redact(message) == message, "a status line's message is a fixed word")
        buffer.string(message)
    }

    /// A string member, redacted like any metadata string.
    package mutating func string(_ key: String, _ value: String) {
        member(key)
        buffer.string(LogRedaction.redact(value))
    }

    /// An integer written as a JSON string (`"partition":"3"`), as `.string(String(value))` metadata is:
    /// without making the string.
    package mutating func integerString(_ key: String, _ value: Int64) {
        member(key)
        buffer.quotedInteger(value)
    }

    package mutating func integerString(_ key: String, _ value: UInt64) {
        member(key)
        buffer.quotedInteger(negative: false, magnitude: value)
    }

    /// Integers as an array of JSON strings (`"counts":["5","0"]`), as `.array` of `.string` metadata is.
    package mutating func integerStrings(_ key: String, _ values: some Sequence<Int>) {
        member(key)
        buffer.open(UInt8(ascii: "["))
        for value in values {
            buffer.element()
            buffer.quotedInteger(Int64(value))
        }
        buffer.close(UInt8(ascii: "]"))
    }

    /// Ends the line and hands it to the handler's sink.
    package consuming func write() {
        sink.write(buffer.finish(), urgent: urgent)
    }

    private mutating func member(_ key: String) {
        #if DEBUG
        assert(lastKey.isEmpty || lastKey < key, "status line members in ascending key order: \(lastKey), \(key)")
        assert(!LogRedaction.isSensitiveKey(key), "a status line key names no secret: \(key)")
        lastKey = key
        #endif
        buffer.key(JSONLogHandler.isReserved(key) ? "meta_" + key : key)
    }
}
