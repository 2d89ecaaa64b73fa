import Foundation
import QueryWorker
import Logging

/// Helpers of the settings tests.
enum ConfigurationTestSupport {
    /// A setting's value as text, to compare one key at a time: durations in milliseconds, lists
    /// comma-joined, named queries by count.
    static func value(of key: SettingsKey, in settings: WorkerSettings) -> String {
        switch key {
        case .bootstrapServers: settings.bootstrapServers.joined(separator: ",")
        case .groupID: settings.groupID
        case .workerID: settings.workerID
        case .requestsTopic: settings.topics.requests
        case .resultsTopic: settings.topics.results
        case .errorsTopic: settings.topics.errors
        case .allowedHosts: settings.allowedHosts.joined(separator: ",")
        case .maxInFlight: String(settings.limits.maxInFlight)
        case .lowMark: String(settings.limits.lowMark)
        case .maxRequestBytes: String(settings.limits.maxRequestBytes)
        case .maxResultBytes: String(settings.limits.maxResultBytes)
        case .maxTargets: String(settings.limits.maxTargets)
        case .maxLayers: String(settings.limits.maxLayers)
        case .revokeTimeout: milliseconds(settings.timeouts.revoke)
        case .shutdownTimeout: milliseconds(settings.timeouts.shutdown)
        case .requestTimeout: milliseconds(settings.timeouts.request)
        case .httpConnectTimeout: milliseconds(settings.timeouts.httpConnect)
        case .httpTimeout: milliseconds(settings.timeouts.http)
        case .summaryInterval: milliseconds(settings.summaryInterval)
        case .memoryTrimInterval: milliseconds(settings.memoryTrimInterval)
        case .includeBuiltInQueries: String(settings.namedQueries.count)
        case .allowFreeWhere: String(settings.allowFreeWhere)
        case .httpLoopRunsRequests: String(settings.httpLoopRunsRequests)
        case .logLevel: settings.logLevel.rawValue
        case .credentialsFile: settings.credentialsFile ?? "none"
        case .readAheadMessages: String(settings.buffers.readAheadMessages)
        case .readAheadBytes: String(settings.buffers.readAheadBytes)
        case .producerQueueMessages: String(settings.buffers.producerQueueMessages)
        case .producerQueueBytes: String(settings.buffers.producerQueueBytes)
        default: "?"
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// For every key: a value as written in a flag or variable, and what it reads as.
    static let samples: [(key: SettingsKey, text: String, expected: String)] = [
        (.bootstrapServers, "k1:9092, k2:9092,", "k1:9092,k2:9092"),
        (.groupID, "group-7", "group-7"),
        (.workerID, "worker-7", "worker-7"),
        (.requestsTopic, "q.in", "q.in"),
        (.resultsTopic, "q.out", "q.out"),
        (.errorsTopic, "q_err", "q_err"),
        (.allowedHosts, "a.example.com, *.b.example.com,10.0.0.0/8,[::1]:8080", "a.example.com,*.b.example.com,10.0.0.0/8,[::1]:8080"),
        (.maxInFlight, "64", "64"),
        (.lowMark, "10", "10"),
        (.maxRequestBytes, "512KiB", "524288"),
        (.maxResultBytes, "2MB", "2000000"),
        (.maxTargets, "4", "4"),
        (.maxLayers, "250", "250"),
        (.revokeTimeout, "2500ms", "2500"),
        (.shutdownTimeout, "1.5m", "90000"),
        (.requestTimeout, "90", "90000"),
        (.httpConnectTimeout, "5s", "5000"),
        (.httpTimeout, "45 s", "45000"),
        (.summaryInterval, "0", "0"),
        (.memoryTrimInterval, "2m", "120000"),
        (.includeBuiltInQueries, "false", "0"),
        (.allowFreeWhere, "no", "false"),
        (.httpLoopRunsRequests, "off", "false"),
        (.logLevel, "DEBUG", "debug"),
        // Any readable file: the setting only names it (its content is checked at start, see WorkerCredentials).
        (.credentialsFile, " /dev/null ", "/dev/null"),
        (.readAheadMessages, "2000", "2000"),
        (.readAheadBytes, "512KiB", "524288"),
        (.producerQueueMessages, "20000", "20000"),
        (.producerQueueBytes, "64MiB", "67108864"),
    ]

    /// Writes `text` to a new temporary file and returns its path.
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
