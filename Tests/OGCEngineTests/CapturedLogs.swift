import Logging
import Synchronization

/// A log handler that keeps what is logged, so a test can read which warnings an engine wrote.
struct CapturedLogs: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var flat: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { flat[key] = "\(value)" }
        store.entries.withLock { $0.append(Entry(level: event.level, message: "\(event.message)", metadata: flat)) }
    }

    /// A logger writing into a fresh store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "captured") { _ in CapturedLogs(store: store) }, store)
    }
}
