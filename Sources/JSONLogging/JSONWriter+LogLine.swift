import FeatureQuerySupport
import Logging

/// What every log line shares, written the same way by ``JSONLogHandler`` and ``JSONStatusLine``.
extension JSONWriter {
    /// A line's opening `{` and its first members: `ts` (now, from the real-time clock), `level`, `label` and
    /// `message` (the caller has redacted it).
    static func logLine(level: Logger.Level, label: String, message: String) -> JSONWriter {
        var line = JSONWriter(capacity: 256)
        line.raw(#"{"ts":"#)
        line.timestamp(milliseconds: WallClock.nowMilliseconds())
        line.raw(#","level":"#)
        line.string(level.rawValue)
        line.raw(#","label":"#)
        line.string(label)
        line.raw(#","message":"#)
        line.string(message)
        return line
    }

    /// Starts a member of the line or of an object in it: the separating comma unless the object was just
    /// opened, then `"key":` (keys come from metadata, so they are escaped).
    mutating func member(_ key: String) {
        separator()
        self.key(escaping: key)
    }

    /// Ends the object and the line.
    mutating func endingLogLine() -> [UInt8] {
        raw("}\n")
        return bytes
    }
}
