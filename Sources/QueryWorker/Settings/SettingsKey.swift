/// One setting: its key in flags and the configuration file, its environment variable, its flag, and how
/// its value is written.
///
/// Keys are dotted camel case (`maxInFlight`, `topics.requests`); in a JSON file a dot is a level of
/// nesting or part of the name, as you like (`{"topics": {"requests": "q"}}` or `{"topics.requests": "q"}`).
/// The environment variable is `QUERY_WORKER_` + the key in upper snake case (`QUERY_WORKER_MAX_IN_FLIGHT`,
/// `QUERY_WORKER_TOPICS_REQUESTS`), as swift-configuration's environment provider spells keys; the flag is
/// `--` + the key in kebab case (`--max-in-flight`, `--topics-requests`).
///
/// Two families of keys are open-ended: `kafka.<librdkafka property>` and `namedQueries.<name>` (see
/// ``WorkerSettings/load(flags:environment:configFile:)`` for how each source spells them).
package struct SettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// How a value is written.
    package enum Kind: String, Hashable, Sendable {
        /// Text, not empty.
        case text
        /// A list: a JSON array of strings, or comma-separated text.
        case list
        /// A whole number.
        case integer
        /// Bytes: a whole number, or with a unit: `512KiB`, `1MiB`, `2GiB`, `1MB` (1,000,000).
        case size
        /// A duration: `250ms`, `10s`, `1.5m`, `2h`; a bare number is seconds.
        case duration
        /// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`).
        case bool
        /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
        case logLevel
    }

    /// The key, as in a configuration file.
    package let name: String
    package let kind: Kind
    /// One line for `--help`.
    package let summary: String

    init(_ name: String, _ kind: Kind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }

    package var description: String { name }

    /// `QUERY_WORKER_` + upper snake case: camel-case humps and dots become underscores.
    package var environmentVariable: String { SettingsKey.environmentPrefix + Self.upperSnakeCase(name) }

    /// `--` + kebab case: `--max-in-flight`, `--topics-requests`.
    package var flag: String { "--" + Self.upperSnakeCase(name).lowercased().replacingUnderscores(with: "-") }

    /// The prefix of every environment variable the worker reads.
    package static let environmentPrefix = "QUERY_WORKER_"
    /// The prefix of librdkafka pass-through keys.
    package static let kafkaPrefix = "kafka."
    /// The prefix of named-query keys.
    package static let namedQueryPrefix = "namedQueries."
    /// The environment variable naming the configuration file (the executable's `--config` flag wins).
    package static let configFileVariable = "QUERY_WORKER_CONFIG_FILE"
    /// The environment variable holding named queries as one JSON object (`{"big": "Shape_Area > 1e6"}`).
    package static let namedQueriesVariable = "QUERY_WORKER_NAMED_QUERIES"
    /// The prefix of librdkafka pass-through environment variables (see ``kafkaProperty(fromEnvironmentName:)``).
    package static let kafkaVariablePrefix = "QUERY_WORKER_KAFKA_"

    /// The librdkafka property a `QUERY_WORKER_KAFKA_*` variable sets: the rest of the name lowercased,
    /// `_` read as `.` and `__` as `_` (`QUERY_WORKER_KAFKA_SASL_PASSWORD` → `sasl.password`). librdkafka's
    /// string-settable properties are lowercase and dotted, so every one has a spelling.
    package static func kafkaProperty(fromEnvironmentName name: String) -> String? {
        guard name.hasPrefix(kafkaVariablePrefix) else { return nil }
        let rest = name.dropFirst(kafkaVariablePrefix.count).lowercased()
        guard !rest.isEmpty else { return nil }
        return rest.replacingOccurrencesOfDoubleUnderscore()
    }

    /// Swift-configuration's environment key encoding: a lowercase letter followed by an uppercase one
    /// gets an underscore between, then everything is uppercased and any other character is `_`.
    static func upperSnakeCase(_ key: String) -> String {
        var result = ""
        var previous: Character?
        for character in key {
            if let previous, previous.isLowercase, character.isUppercase { result.append("_") }
            result.append(character.isLetter || character.isNumber ? Character(character.uppercased()) : "_")
            previous = character
        }
        return result
    }
}

extension String {
    fileprivate func replacingUnderscores(with replacement: Character) -> String {
        String(map { $0 == "_" ? replacement : $0 })
    }

    /// `a__b_c` → `a_b.c`.
    fileprivate func replacingOccurrencesOfDoubleUnderscore() -> String {
        var result = ""
        var index = startIndex
        while index < endIndex {
            let next = self.index(after: index)
            if self[index] == "_" {
                if next < endIndex, self[next] == "_" {
                    result.append("_")
                    index = self.index(after: next)
                    continue
                }
                result.append(".")
            } else {
                result.append(self[index])
            }
            index = next
        }
        return result
    }
}

extension SettingsKey {
    package static let bootstrapServers = SettingsKey("bootstrapServers", .list, "Kafka brokers, host:port, comma-separated.")
    package static let groupID = SettingsKey("groupId", .text, "Consumer group of the workers.")
    package static let workerID = SettingsKey("workerId", .text, "This worker's name in logs, outcomes and its Kafka client id.")
    package static let requestsTopic = SettingsKey("topics.requests", .text, "Topic of query requests.")
    package static let resultsTopic = SettingsKey("topics.results", .text, "Topic results are published to.")
    package static let errorsTopic = SettingsKey("topics.errors", .text, "Topic errors are published to.")
    package static let progressTopic = SettingsKey(
        "topics.progress", .text, "Topic progress events are published to (requests with progress: true; optional).")
    package static let allowedHosts = SettingsKey(
        "allowedHosts", .list, "Hosts requests may query: names, *.suffix, IPs, CIDR ranges, each with optional :port.")
    package static let maxInFlight = SettingsKey("maxInFlight", .integer, "Requests running at once (fetching pauses there).")
    package static let lowMark = SettingsKey("lowMark", .integer, "Fetching resumes at this many running requests.")
    package static let maxRequestBytes = SettingsKey("maxRequestBytes", .size, "Largest request message accepted.")
    package static let maxResultBytes = SettingsKey("maxResultBytes", .size, "Largest result message; larger results are split.")
    package static let maxResultTotalBytes = SettingsKey(
        "maxResultTotalBytes", .size,
        "Most bytes one request's result may hold (larger results are cut, incomplete), and one HTTP response (larger: limit_exceeded).")
    package static let maxTargets = SettingsKey(
        "maxTargets", .integer, "Most targets (layer or service URLs) one request may name; 1 to 16, the contract's limit.")
    package static let maxLayers = SettingsKey(
        "maxLayers", .integer,
        "Most layers one request may query in all: layer URLs, layers lists and whole services' feature layers; 1 to 1600.")
    package static let maxRequestsPerHost = SettingsKey(
        "maxRequestsPerHost", .integer, "HTTP requests in flight to one feature-service host at once; more wait.")
    package static let revokeTimeout = SettingsKey("revokeTimeout", .duration, "Wait for revoked partitions' work.")
    package static let shutdownTimeout = SettingsKey("shutdownTimeout", .duration, "Wait for running requests at shutdown.")
    package static let requestTimeout = SettingsKey("requestTimeout", .duration, "Deadline of a request that carries none.")
    package static let maxRequestAge = SettingsKey(
        "maxRequestAge", .duration,
        "Oldest request (by its Kafka timestamp) still run; older ones are answered expired without a query (0: no bound).")
    package static let httpConnectTimeout = SettingsKey("httpConnectTimeout", .duration, "Connect timeout of an HTTP exchange.")
    package static let httpTimeout = SettingsKey("httpTimeout", .duration, "Timeout of one whole HTTP exchange.")
    package static let summaryInterval = SettingsKey("summaryInterval", .duration, "Interval of summary log lines (0: off).")
    package static let memoryTrimInterval = SettingsKey(
        "memoryTrimInterval", .duration, "How often freed heap memory the allocator keeps is given back to the system (0: never).")
    package static let includeBuiltInQueries = SettingsKey(
        "includeBuiltInQueries", .bool, "Include the seven built-in named queries.")
    package static let allowFreeWhere = SettingsKey("allowFreeWhere", .bool, "Accept where clauses, not only named queries.")
    package static let logLevel = SettingsKey("logLevel", .logLevel, "trace, debug, info, notice, warning, error, critical.")
    package static let credentialsFile = SettingsKey(
        "credentialsFile", .text,
        "The operator's credentials file (JSON): credentials requests may use, by name and URL scope; reloaded on change.")
    // Latency.
    package static let fetchWaitMax = SettingsKey(
        "fetchWaitMax", .duration,
        "Longest an idle fetch waits for data (librdkafka fetch.wait.max.ms); unset: 500ms, 2ms on the embedded cluster.")
    // CPU.
    package static let httpLoopRunsRequests = SettingsKey(
        "httpLoopRunsRequests", .bool,
        "Run requests on the HTTP client's loop thread (least CPU per request, one core); false: on every core.")
    // Traces.
    package static let otlpEndpoint = SettingsKey(
        "otlpEndpoint", .text,
        "OTLP/HTTP collector to export spans to (http(s)://host:4318; /v1/traces is added).")

    /// Every fixed key, in the order `--help` lists them.
    package static let all: [SettingsKey] = [
        bootstrapServers, groupID, workerID, requestsTopic, resultsTopic, errorsTopic, progressTopic, allowedHosts, maxInFlight,
        lowMark, maxRequestBytes, maxResultBytes, maxResultTotalBytes, maxTargets, maxLayers, maxRequestsPerHost, revokeTimeout, shutdownTimeout, requestTimeout,
        maxRequestAge, httpConnectTimeout, httpTimeout, summaryInterval, memoryTrimInterval, includeBuiltInQueries, allowFreeWhere, logLevel, credentialsFile,
        fetchWaitMax, httpLoopRunsRequests, otlpEndpoint,
    ] + bufferKeys + operationsKeys + exactlyOnceKeys + [staticMembership] + resultStoreKeys

    /// The key with this name, if it is a fixed one.
    package static func named(_ name: String) -> SettingsKey? { all.first { $0.name == name } }
}
