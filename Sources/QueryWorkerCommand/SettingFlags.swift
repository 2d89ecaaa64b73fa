import ArgumentParser
import QueryWorker

/// `run`'s flags: one per fixed setting, named, described and documented from its ``SettingsKey`` (flag,
/// `QUERY_WORKER_*` variable, file key, default), plus the open-ended librdkafka properties and named queries.
///
/// ArgumentParser needs a stored property per flag, so each key is spelled once here; everything `--help`
/// says about it comes from the key. The command tests check that `--help` lists every key of
/// ``SettingsKey/all`` and that each flag reaches its setting.
struct SettingFlags: ParsableArguments {
    @Option(name: .setting(.bootstrapServers), help: .setting(.bootstrapServers)) var bootstrapServers: String?
    @Option(name: .setting(.groupID), help: .setting(.groupID)) var groupID: String?
    @Option(name: .setting(.workerID), help: .setting(.workerID)) var workerID: String?
    @Option(name: .setting(.requestsTopic), help: .setting(.requestsTopic)) var requestsTopic: String?
    @Option(name: .setting(.resultsTopic), help: .setting(.resultsTopic)) var resultsTopic: String?
    @Option(name: .setting(.errorsTopic), help: .setting(.errorsTopic)) var errorsTopic: String?
    @Option(name: .setting(.progressTopic), help: .setting(.progressTopic)) var progressTopic: String?
    @Option(name: .setting(.allowedHosts), help: .setting(.allowedHosts)) var allowedHosts: String?
    @Option(name: .setting(.maxInFlight), help: .setting(.maxInFlight)) var maxInFlight: String?
    @Option(name: .setting(.lowMark), help: .setting(.lowMark)) var lowMark: String?
    @Option(name: .setting(.maxRequestBytes), help: .setting(.maxRequestBytes)) var maxRequestBytes: String?
    @Option(name: .setting(.maxResultBytes), help: .setting(.maxResultBytes)) var maxResultBytes: String?
    @Option(name: .setting(.maxResultTotalBytes), help: .setting(.maxResultTotalBytes)) var maxResultTotalBytes: String?
    @Option(name: .setting(.maxTargets), help: .setting(.maxTargets)) var maxTargets: String?
    @Option(name: .setting(.maxLayers), help: .setting(.maxLayers)) var maxLayers: String?
    @Option(name: .setting(.maxRequestsPerHost), help: .setting(.maxRequestsPerHost)) var maxRequestsPerHost: String?
    @Option(name: .setting(.revokeTimeout), help: .setting(.revokeTimeout)) var revokeTimeout: String?
    @Option(name: .setting(.shutdownTimeout), help: .setting(.shutdownTimeout)) var shutdownTimeout: String?
    @Option(name: .setting(.requestTimeout), help: .setting(.requestTimeout)) var requestTimeout: String?
    @Option(name: .setting(.maxRequestAge), help: .setting(.maxRequestAge)) var maxRequestAge: String?
    @Option(name: .setting(.httpConnectTimeout), help: .setting(.httpConnectTimeout)) var httpConnectTimeout: String?
    @Option(name: .setting(.httpTimeout), help: .setting(.httpTimeout)) var httpTimeout: String?
    @Option(name: .setting(.summaryInterval), help: .setting(.summaryInterval)) var summaryInterval: String?
    @Option(name: .setting(.memoryTrimInterval), help: .setting(.memoryTrimInterval)) var memoryTrimInterval: String?
    @Option(name: .setting(.includeBuiltInQueries), help: .setting(.includeBuiltInQueries)) var includeBuiltInQueries: String?
    @Option(name: .setting(.allowFreeWhere), help: .setting(.allowFreeWhere)) var allowFreeWhere: String?
    @Option(name: .setting(.logLevel), help: .setting(.logLevel)) var logLevel: String?
    @Option(name: .setting(.credentialsFile), help: .setting(.credentialsFile)) var credentialsFile: String?
    @Option(name: .setting(.otlpEndpoint), help: .setting(.otlpEndpoint)) var otlpEndpoint: String?
    @Option(name: .setting(.readAheadMessages), help: .setting(.readAheadMessages)) var readAheadMessages: String?
    @Option(name: .setting(.readAheadBytes), help: .setting(.readAheadBytes)) var readAheadBytes: String?
    @Option(name: .setting(.producerQueueMessages), help: .setting(.producerQueueMessages)) var producerQueueMessages: String?
    @Option(name: .setting(.producerQueueBytes), help: .setting(.producerQueueBytes)) var producerQueueBytes: String?
    // Latency.
    @Option(name: .setting(.fetchWaitMax), help: .setting(.fetchWaitMax)) var fetchWaitMax: String?
    @Option(name: .setting(.httpLoopRunsRequests), help: .setting(.httpLoopRunsRequests)) var httpLoopRunsRequests: String?
    // Operations.
    @Option(name: .setting(.opsPort), help: .setting(.opsPort)) var opsPort: String?
    @Option(name: .setting(.opsAddress), help: .setting(.opsAddress)) var opsAddress: String?
    @Option(name: .setting(.exactlyOnce), help: .setting(.exactlyOnce)) var exactlyOnce: String?
    @Option(name: .setting(.transactionalID), help: .setting(.transactionalID)) var transactionalID: String?
    @Option(name: .setting(.transactionInterval), help: .setting(.transactionInterval)) var transactionInterval: String?
    @Option(name: .setting(.staticMembership), help: .setting(.staticMembership)) var staticMembership: String?
    // The result store (credentials only from the AWS environment, shared file or web identity: no flag takes them).
    @Option(name: .setting(.resultStore), help: .setting(.resultStore)) var resultStore: String?
    @Option(name: .setting(.resultStoreEndpoint), help: .setting(.resultStoreEndpoint)) var resultStoreEndpoint: String?
    @Option(name: .setting(.resultStoreRegion), help: .setting(.resultStoreRegion)) var resultStoreRegion: String?
    @Option(name: .setting(.resultStoreThreshold), help: .setting(.resultStoreThreshold)) var resultStoreThreshold: String?
    @Option(name: .setting(.resultStorePartBytes), help: .setting(.resultStorePartBytes)) var resultStorePartBytes: String?
    @Option(name: .setting(.resultStoreUrlLifetime), help: .setting(.resultStoreUrlLifetime)) var resultStoreUrlLifetime: String?

    @Option(
        name: .customLong("kafka"),
        help: ArgumentHelp(
            "A librdkafka property for the consumer and producer (repeatable; e.g. security.protocol=SSL). "
                + "Environment: \(SettingsKey.kafkaVariablePrefix)<PROPERTY> (`_` is `.`, `__` is `_`); file key: "
                + "\(SettingsKey.kafkaPrefix)<property>.",
            valueName: "property=value"))
    var kafkaProperties: [String] = []

    @Option(
        name: .customLong("named-query"),
        help: ArgumentHelp(
            "A named where clause requests may use (repeatable; e.g. big='Shape_Area > 1e6'). Environment: "
                + "\(SettingsKey.namedQueriesVariable) (one JSON object, name → clause); file key: "
                + "\(SettingsKey.namedQueryPrefix)<name>. Default: the seven built-in seed queries.",
            valueName: "name=clause"))
    var namedQueries: [String] = []

    /// The fixed settings given as flags, by key, each flag's value as typed.
    var fixedValues: [SettingsKey: String] {
        let given: [(SettingsKey, String?)] = [
            (.bootstrapServers, bootstrapServers), (.groupID, groupID), (.workerID, workerID),
            (.requestsTopic, requestsTopic), (.resultsTopic, resultsTopic), (.errorsTopic, errorsTopic),
            (.progressTopic, progressTopic),
            (.allowedHosts, allowedHosts), (.maxInFlight, maxInFlight), (.lowMark, lowMark),
            (.maxRequestBytes, maxRequestBytes), (.maxResultBytes, maxResultBytes), (.maxTargets, maxTargets),
            (.maxLayers, maxLayers), (.maxRequestsPerHost, maxRequestsPerHost), (.maxResultTotalBytes, maxResultTotalBytes),
            (.revokeTimeout, revokeTimeout), (.shutdownTimeout, shutdownTimeout), (.requestTimeout, requestTimeout),
            (.maxRequestAge, maxRequestAge), (.httpConnectTimeout, httpConnectTimeout), (.httpTimeout, httpTimeout), (.summaryInterval, summaryInterval), (.memoryTrimInterval, memoryTrimInterval),
            (.includeBuiltInQueries, includeBuiltInQueries), (.allowFreeWhere, allowFreeWhere), (.logLevel, logLevel),
            (.credentialsFile, credentialsFile), (.otlpEndpoint, otlpEndpoint),
            (.readAheadMessages, readAheadMessages), (.readAheadBytes, readAheadBytes),
            (.producerQueueMessages, producerQueueMessages), (.producerQueueBytes, producerQueueBytes),
            (.fetchWaitMax, fetchWaitMax), (.httpLoopRunsRequests, httpLoopRunsRequests),
            (.opsPort, opsPort), (.opsAddress, opsAddress),
            (.exactlyOnce, exactlyOnce), (.transactionalID, transactionalID), (.transactionInterval, transactionInterval),
            (.staticMembership, staticMembership),
            (.resultStore, resultStore), (.resultStoreEndpoint, resultStoreEndpoint), (.resultStoreRegion, resultStoreRegion),
            (.resultStoreThreshold, resultStoreThreshold), (.resultStorePartBytes, resultStorePartBytes),
            (.resultStoreUrlLifetime, resultStoreUrlLifetime),
        ]
        var values: [SettingsKey: String] = [:]
        for case let (key, value?) in given { values[key] = value }
        return values
    }

    /// Every flag as `WorkerSettings.load(flags:)` takes it: by key name, librdkafka properties as
    /// `kafka.<property>` and named queries as `namedQueries.<name>`.
    func settingsFlags() throws(ValidationError) -> [String: String] {
        var flags: [String: String] = [:]
        for entry in kafkaProperties {
            let (property, value) = try Self.pair(entry, flag: "--kafka", shape: "property=value")
            flags[SettingsKey.kafkaPrefix + property] = value
        }
        for entry in namedQueries {
            let (name, clause) = try Self.pair(entry, flag: "--named-query", shape: "name=clause")
            flags[SettingsKey.namedQueryPrefix + name] = clause
        }
        for (key, value) in fixedValues { flags[key.name] = value }
        return flags
    }

    /// Splits `left=right` at the first `=`.
    static func pair(_ entry: String, flag: String, shape: String) throws(ValidationError) -> (String, String) {
        guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
            throw ValidationError("\(flag) takes \(shape), got '\(entry)'")
        }
        return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
    }
}

extension NameSpecification {
    /// The setting's flag (``SettingsKey/flag``) as ArgumentParser names it.
    static func setting(_ key: SettingsKey) -> NameSpecification {
        .customLong(String(key.flag.drop { $0 == "-" }))
    }
}

extension ArgumentHelp {
    /// The setting's line, then where else it can be set and its default: the same facts for every key.
    static func setting(_ key: SettingsKey) -> ArgumentHelp {
        ArgumentHelp(
            "\(key.summary) Environment: \(key.environmentVariable); file key: \(key.name); default: \(key.defaultText).",
            valueName: key.kind.valueName)
    }
}

extension SettingsKey.Kind {
    /// How `--help` shows the flag's value.
    var valueName: String {
        switch self {
        case .text: "text"
        case .list: "list"
        case .integer: "n"
        case .size: "size"
        case .duration: "duration"
        case .bool: "bool"
        case .logLevel: "level"
        }
    }
}
