import BenchmarkSupport
import Foundation
import Logging

/// Logs to standard error as `seconds-since-start level label: message metadata`, with millisecond
/// resolution, so that a stall in a run can be lined up with what the clients logged.
struct BenchmarkLogHandler: LogHandler {
    static let start = ContinuousClock.now

    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let elapsed = (ContinuousClock.now - Self.start).seconds
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        var text = "\(format(elapsed, 3)) \(event.level) \(label): \(event.message)"
        if !merged.isEmpty {
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.shorten("\($0.value)"))" }.joined(separator: " ")
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static func shorten(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "...(\(text.count) chars)" : text
    }
}
