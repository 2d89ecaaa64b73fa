import FeatureQuerySupport
package import Logging

/// A swift-log handler that writes one JSON object per line.
///
/// Each line has `ts` (RFC 3339 UTC with milliseconds), `level`, `label`, `message`, `error` when the
/// event carries one, and then the metadata as top-level members in key order: the handler's metadata,
/// then the metadata provider's, then the call's (a later one wins for the same key). A metadata key that
/// equals one of those fixed names is written with a `meta_` prefix, so no line has duplicate keys.
///
/// Values keep their types: `.string` is a JSON string, `.stringConvertible` holding an integer,
/// floating-point number (finite) or `Bool` is a JSON number or boolean (so `"partition": .stringConvertible(3)`
/// gives `"partition":3` while `"partition": "3"` gives `"3"`), any other `.stringConvertible` is its
/// description, and nested dictionaries and arrays are JSON objects and arrays.
///
/// Secrets never reach a line: see ``LogRedaction``. Lines are handed whole to a ``JSONLogSink``.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    package let label: String
    /// Internal for ``JSONStatusLine``, which writes to the same sink.
    let sink: JSONLogSink

    /// Member names the handler writes itself.
    static let reservedKeys: Set<String> = ["ts", "level", "label", "message", "error"]

    package init(label: String, sink: JSONLogSink = .standardOutput, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        sink.write(line(for: event), urgent: event.level >= .warning)
    }

    /// The bytes of the line for `event`, newline included.
    func line(for event: LogEvent) -> [UInt8] {
        var line = JSONWriter.logLine(level: event.level, label: label, message: LogRedaction.redact(event.message.description))
        if let error = event.error {
            line.member("error")
            line.string(LogRedaction.redact(String(describing: error)))
        }
        // Members sorted by key, taken from the dictionary once: no array of keys and a lookup per key.
        for (key, value) in mergedMetadata(event.metadata).sorted(by: { $0.key < $1.key }) {
            line.member(Self.isReserved(key) ? "meta_" + key : key)
            Self.write(value, sensitive: LogRedaction.isSensitiveKey(key), into: &line)
        }
        return line.endingLogLine()
    }

    /// Whether `key` is one of ``reservedKeys``: compared directly, which is cheaper than hashing every
    /// metadata key of every line into the set.
    static func isReserved(_ key: String) -> Bool {
        switch key.utf8.count {
        case 2: key == "ts"
        case 5: key == "level" || key == "label" || key == "error"
        case 7: key == "message"
        default: false
        }
    }

    private func mergedMetadata(_ explicit: Logger.Metadata?) -> Logger.Metadata {
        // The common case, a call's metadata alone, needs no copy.
        if metadata.isEmpty, metadataProvider == nil { return explicit ?? [:] }
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, new in new }
        }
        if let explicit, !explicit.isEmpty {
            merged.merge(explicit) { _, new in new }
        }
        return merged
    }

    static func write(_ value: Logger.Metadata.Value, sensitive: Bool, into line: inout JSONWriter) {
        if sensitive {
            line.string(LogRedaction.placeholder)
            return
        }
        switch value {
        case .string(let text):
            line.string(LogRedaction.redact(text))
        case .stringConvertible(let convertible):
            if let literal = jsonLiteral(convertible) {
                line.rawText(literal)
            } else {
                line.string(LogRedaction.redact(convertible.description))
            }
        case .dictionary(let members):
            line.byte(UInt8(ascii: "{"))
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                line.member(key)
                write(member, sensitive: LogRedaction.isSensitiveKey(key), into: &line)
            }
            line.byte(UInt8(ascii: "}"))
        case .array(let elements):
            line.byte(UInt8(ascii: "["))
            for element in elements {
                line.separator()
                write(element, sensitive: false, into: &line)
            }
            line.byte(UInt8(ascii: "]"))
        }
    }

    /// A number or boolean as JSON text; `nil` for anything else (and for NaN and infinities, which JSON
    /// can't hold: they are written as strings).
    static func jsonLiteral(_ value: any CustomStringConvertible & Sendable) -> String? {
        switch value {
        case let value as Bool: return value ? "true" : "false"
        case let value as Int: return String(value)
        case let value as Int64: return String(value)
        case let value as Int32: return String(value)
        case let value as Int16: return String(value)
        case let value as Int8: return String(value)
        case let value as UInt: return String(value)
        case let value as UInt64: return String(value)
        case let value as UInt32: return String(value)
        case let value as UInt16: return String(value)
        case let value as UInt8: return String(value)
        case let value as Double: return value.isFinite ? value.description : nil
        case let value as Float: return value.isFinite ? value.description : nil
        default: return nil
        }
    }
}

extension JSONLogHandler {
    /// Makes every `Logger` of the process log JSON lines at `level` to `sink` (standard output by default).
    ///
    /// For executables only, once, before the first `Logger` is made (swift-log allows one bootstrap per
    /// process); libraries take a `Logger` from their caller.
    package static func bootstrap(
        level: Logger.Level,
        sink: JSONLogSink = .standardOutput,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        LoggingSystem.bootstrap(
            { label, provider in
                var handler = JSONLogHandler(label: label, sink: sink, metadataProvider: provider)
                handler.logLevel = level
                return handler
            },
            metadataProvider: metadataProvider
        )
    }
}
