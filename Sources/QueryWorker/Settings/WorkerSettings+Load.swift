import Foundation
import RequestContract

extension WorkerSettings {
    /// Settings as loaded, with where each came from.
    package struct Loaded: Sendable {
        package var settings: WorkerSettings
        /// Where each setting that is not at its default came from, by key (`maxInFlight`,
        /// `kafka.security.protocol`, `namedQueries.big`): for the start-up log line.
        package var origins: [String: SettingsOrigin]
        /// `QUERY_WORKER_*` variables that are not settings: typos to warn about, or set by the platform.
        package var ignoredEnvironmentVariables: [String]
        /// The configuration file that was read, if any.
        package var configFile: String?
    }

    /// Loads and validates the settings: flags win over environment variables, which win over the
    /// configuration file, which wins over the defaults.
    ///
    /// - `flags`: the flags the user set, by key (``SettingsKey/name``), as the text typed. List flags may
    ///   be comma-joined. librdkafka properties are `kafka.<property>` keys and named queries
    ///   `namedQueries.<name>` keys (the executable maps `--kafka security.protocol=SSL` and
    ///   `--named-query big=...` to them). An unknown key is an error.
    /// - `environment`: usually the process's. ``SettingsKey/environmentVariable`` names each fixed key;
    ///   `QUERY_WORKER_KAFKA_<PROPERTY>` sets a librdkafka property (see
    ///   ``SettingsKey/kafkaProperty(fromEnvironmentName:)``), `QUERY_WORKER_NAMED_QUERIES` holds named queries as
    ///   one JSON object, and `QUERY_WORKER_CONFIG_FILE` names the file when `configFile` is `nil`.
    /// - `configFile`: a JSON file (see `SettingsLayer.file(path:)`); JSON because swift-configuration
    ///   reads it with its default trait, where YAML would need its `YAML` trait and Yams.
    ///
    /// Named queries and librdkafka properties merge by name across the sources, the higher source winning.
    /// Every bad value is a ``SettingsError`` naming the key, the source and the value.
    package static func load(
        flags: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil
    ) throws(SettingsError) -> Loaded {
        let path = configFile ?? environment[SettingsKey.configFileVariable].flatMap {
            SettingsText.trimmed($0).isEmpty ? nil : SettingsText.trimmed($0)
        }
        var layers = [try SettingsLayer.flags(flags)]
        let (environmentLayer, ignored) = try SettingsLayer.environment(environment)
        layers.append(environmentLayer)
        if let path { layers.append(try SettingsLayer.file(path: path)) }

        var resolver = SettingsResolver(layers: layers)
        let settings = try resolver.resolve()
        return Loaded(settings: settings, origins: resolver.origins, ignoredEnvironmentVariables: ignored, configFile: path)
    }
}

/// Reads each setting from the highest layer that has it, and validates it.
struct SettingsResolver {
    let layers: [SettingsLayer]
    private(set) var origins: [String: SettingsOrigin] = [:]

    init(layers: [SettingsLayer]) {
        self.layers = layers
    }

    mutating func find(_ key: SettingsKey) throws(SettingsError) -> FoundSetting? {
        for layer in layers {
            if let found = try layer.lookup(key) {
                origins[key.name] = found.origin
                return found
            }
        }
        return nil
    }

    mutating func resolve() throws(SettingsError) -> WorkerSettings {
        var settings = WorkerSettings()
        if let found = try find(.bootstrapServers) { settings.bootstrapServers = try SettingsValidation.servers(found) }
        if let found = try find(.groupID) { settings.groupID = try SettingsValidation.name(found, maxLength: 255) }
        if let found = try find(.workerID) { settings.workerID = try SettingsValidation.name(found, maxLength: 255) }
        if let found = try find(.requestsTopic) { settings.topics.requests = try SettingsValidation.topic(found) }
        if let found = try find(.resultsTopic) { settings.topics.results = try SettingsValidation.topic(found) }
        if let found = try find(.errorsTopic) { settings.topics.errors = try SettingsValidation.topic(found) }
        if let found = try find(.progressTopic) { settings.topics.progress = try SettingsValidation.topic(found) }
        if let found = try find(.allowedHosts) { settings.allowedHosts = try SettingsValidation.hosts(found) }
        try resolveLimits(&settings)
        try resolveBuffers(&settings)
        try resolveTimeouts(&settings)
        if let found = try find(.allowFreeWhere) { settings.allowFreeWhere = try found.bool() }
        if let found = try find(.httpLoopRunsRequests) { settings.httpLoopRunsRequests = try found.bool() }
        if let found = try find(.logLevel) { settings.logLevel = try found.logLevel() }
        if let found = try find(.credentialsFile) { settings.credentialsFile = try SettingsValidation.readableFile(found) }
        if let found = try find(.otlpEndpoint) { settings.otlpEndpoint = try SettingsValidation.otlpEndpoint(found) }
        let includeBuiltIns = try find(.includeBuiltInQueries)?.bool() ?? true
        settings.namedQueries = try mergedNamedQueries(includeBuiltIns: includeBuiltIns)
        settings.kafkaProperties = try mergedKafkaProperties()
        try resolveFetchWait(&settings)
        try resolveOperations(&settings)
        try resolveExactlyOnce(&settings)
        try resolveStaticMembership(&settings)
        try resolveResultStore(&settings)
        try checkMessageSize(settings)
        try SettingsValidation.topicsDiffer(settings.topics, origins: origins)
        return settings
    }

    private mutating func resolveLimits(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.maxInFlight) { settings.limits.maxInFlight = try found.integer(in: 1...100_000) }
        settings.limits.lowMark = settings.limits.maxInFlight * 3 / 4
        if let found = try find(.lowMark) {
            let lowMark = try found.integer(in: 0...100_000)
            guard lowMark < settings.limits.maxInFlight else {
                throw found.error(
                    "lowMark must be below maxInFlight (\(settings.limits.maxInFlight)): fetching resumes at the low mark",
                    code: .conflict)
            }
            settings.limits.lowMark = lowMark
        }
        if let found = try find(.maxRequestBytes) { settings.limits.maxRequestBytes = try found.size(in: 1_024...(64 << 20)) }
        if let found = try find(.maxResultBytes) { settings.limits.maxResultBytes = try found.size(in: 1_024...(64 << 20)) }
        if let found = try find(.maxResultTotalBytes) {
            settings.limits.maxResultTotalBytes = try found.size(in: (64 << 10)...(16 << 30))
        }
        if let found = try find(.maxTargets) {
            settings.limits.maxTargets = try found.integer(in: 1...RequestLimits.contractMaxTargets)
        }
        if let found = try find(.maxLayers) { settings.limits.maxLayers = try found.integer(in: 1...RequestLimits.contractMaxLayers) }
        if let found = try find(.maxRequestsPerHost) { settings.limits.maxRequestsPerHost = try found.integer(in: 1...1_024) }
    }

    private mutating func resolveTimeouts(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.revokeTimeout) { settings.timeouts.revoke = try found.duration() }
        if let found = try find(.shutdownTimeout) { settings.timeouts.shutdown = try found.duration() }
        if let found = try find(.requestTimeout) { settings.timeouts.request = try found.duration() }
        if let found = try find(.maxRequestAge) { settings.timeouts.maxRequestAge = try found.duration(allowZero: true) }
        if let found = try find(.httpTimeout) { settings.timeouts.http = try found.duration() }
        if let found = try find(.httpConnectTimeout) {
            settings.timeouts.httpConnect = try found.duration()
            guard settings.timeouts.httpConnect <= settings.timeouts.http else {
                throw found.error("httpConnectTimeout must not be longer than httpTimeout (\(settings.timeouts.http))", code: .conflict)
            }
        } else if settings.timeouts.httpConnect > settings.timeouts.http {
            settings.timeouts.httpConnect = settings.timeouts.http
        }
        if let found = try find(.summaryInterval) { settings.summaryInterval = try found.duration(allowZero: true) }
        if let found = try find(.memoryTrimInterval) { settings.memoryTrimInterval = try found.duration(allowZero: true) }
    }

    private mutating func mergedNamedQueries(includeBuiltIns: Bool) throws(SettingsError) -> [String: String] {
        var merged = includeBuiltIns ? WorkerSettings.builtInNamedQueries : [:]
        for layer in layers.reversed() {
            for (name, found) in layer.namedQueries.sorted(by: { $0.key < $1.key }) {
                merged[name] = try SettingsValidation.namedQuery(name: name, found)
                origins[found.key] = found.origin
            }
        }
        return merged
    }

    /// A result part must fit the producer's largest message, or every large result would fail to send.
    private func checkMessageSize(_ settings: WorkerSettings) throws(SettingsError) {
        guard let text = settings.kafkaProperties["message.max.bytes"], let origin = origins["kafka.message.max.bytes"]
        else { return }
        let found = FoundSetting(key: "kafka.message.max.bytes", value: .text(text), origin: origin)
        guard let limit = SettingsText.wholeNumber(text) else { throw found.error("message.max.bytes must be a whole number") }
        guard limit >= settings.limits.maxResultBytes + WorkerSettings.Limits.messageOverhead else {
            throw found.error(
                "message.max.bytes must be at least maxResultBytes (\(settings.limits.maxResultBytes)) + "
                    + "\(WorkerSettings.Limits.messageOverhead) bytes for the key, headers and framing",
                code: .conflict)
        }
    }

    private mutating func mergedKafkaProperties() throws(SettingsError) -> [String: String] {
        var merged: [String: String] = [:]
        for layer in layers.reversed() {
            for (property, found) in layer.kafka.sorted(by: { $0.key < $1.key }) {
                merged[property] = try SettingsValidation.kafkaProperty(property, found)
                origins[found.key] = found.origin
            }
        }
        return merged
    }
}
