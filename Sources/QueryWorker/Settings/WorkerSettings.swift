#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Logging
import QueryLanguage

/// Everything the worker is configured with, with the defaults it runs on.
///
/// Load it with ``load(flags:environment:configFile:)`` (flags > `QUERY_WORKER_*` environment variables >
/// JSON file > defaults), which validates every value; the key of each setting is in ``SettingsKey``.
package struct WorkerSettings: Sendable, Hashable {
    /// Kafka brokers, `host:port`.
    package var bootstrapServers: [String] = ["localhost:9092"]
    /// The consumer group all workers join.
    package var groupID: String = "feature-query-workers"
    /// This worker's name in logs, results and the Kafka client id. Default: `hostname-pid`.
    package var workerID: String = WorkerSettings.defaultWorkerID()
    package var topics = Topics()
    /// Hosts requests may query (see `HostPolicy`). Empty: every host is denied.
    package var allowedHosts: [String] = []
    package var limits = Limits()
    package var timeouts = Timeouts()
    /// What the worker holds of messages on their way in and out (see ``Buffers``).
    package var buffers = Buffers()
    /// The operations endpoint (see ``Operations``): off unless a port is set.
    package var operations = Operations()
    /// Exactly-once outcomes (see ``ExactlyOnce``): off unless asked for.
    package var exactlyOnce = ExactlyOnce()
    /// Whether the consumer joins as a static member named by ``workerID`` (`group.instance.id`, see
    /// `resolveStaticMembership`): off unless asked for.
    package var staticMembership = false
    /// The object store large results go to (see ``ResultStore``): off unless a location is set.
    package var resultStore = ResultStore()
    /// How often the worker logs a summary of its counters; zero turns the summary off.
    package var summaryInterval: Duration = .seconds(30)
    /// How often the executable gives the allocator's kept free memory back (``HeapTrimService``); zero never.
    package var memoryTrimInterval: Duration = .seconds(60)
    /// Named where clauses, name → clause: the built-in examples (unless switched off) merged with the
    /// configured ones, a configured one replacing a built-in of the same name.
    package var namedQueries: [String: String] = WorkerSettings.builtInNamedQueries
    /// Whether requests may send where clauses of their own, not only names.
    package var allowFreeWhere = true
    /// Whether requests run on the HTTP client's loop thread (``HTTPClient/taskExecutor``): no thread hop
    /// per HTTP exchange, the least CPU per request, but one core for the Swift side of every request (the
    /// kafka clients and libcurl's resolver keep their own threads). `false` runs them on the cooperative
    /// pool, every core, for workers whose requests compute for long (large `features` results).
    package var httpLoopRunsRequests = true
    /// librdkafka properties passed through to the consumer and the producer (`security.protocol`, ...).
    package var kafkaProperties: [String: String] = [:]
    package var logLevel: Logger.Level = .info
    /// The operator's credentials file (see `CredentialsFile`); `nil` for a worker without credentials, which
    /// queries public services only. Read and checked at start, then watched (``CredentialsReloader``).
    package var credentialsFile: String?
    /// The OTLP/HTTP endpoint spans are exported to, with its path (`…/v1/traces`); `nil`: none.
    package var otlpEndpoint: String?
    /// How long the consumer's idle fetch waits for data (`fetch.wait.max.ms`); `nil` until resolved at start
    /// (``resolvingFetchWait(clusterIsEmbedded:)``). See ``consumerKafkaProperties``.
    package var fetchWaitMax: Duration?

    package init() {}

    package struct Topics: Sendable, Hashable {
        package var requests = "feature-queries"
        package var results = "feature-query-results"
        package var errors = "feature-query-errors"
        /// Progress events of requests that ask for them (`progress: true`); optional: a missing topic costs
        /// the events, never the requests.
        package var progress = "feature-query-progress"
        package init() {}
    }

    package struct Limits: Sendable, Hashable {
        /// Requests running at once; the consumer pauses fetching at this many.
        package var maxInFlight = 256
        /// Fetching resumes when running requests fall to this many (below ``maxInFlight``).
        /// Default: three quarters of ``maxInFlight``.
        package var lowMark = 192
        /// Largest request message accepted, in bytes.
        package var maxRequestBytes = 1_048_576
        /// Largest result message value produced, in bytes; larger results are split into parts. The
        /// producer's `message.max.bytes` must exceed it by ``messageOverhead`` (librdkafka's default,
        /// 1,000,000, does not exceed the default 1 MiB: set `kafka.message.max.bytes` or the producer's
        /// `messageMaxBytes`), and so must the topic's `max.message.bytes` on the broker.
        package var maxResultBytes = 1_048_576
        /// Most targets one request may name (`too_many_targets`); at most the contract's 16.
        package var maxTargets = 16
        /// Most layers one request may query in all (`too_many_layers`): each layer URL counts one, a
        /// `layers` list its ids (checked on arrival), a whole service its feature layers (checked once the
        /// service's layer list is read). Without it one request could reach 16 × 100 layers.
        package var maxLayers = 100
        /// HTTP requests in flight to one host at once, across all requests: politeness toward each feature
        /// service (an ArcGIS Server instance serves a few requests per CPU at once); the rest wait their turn.
        package var maxRequestsPerHost = 16
        /// The most bytes one request's result may hold while it is gathered (GeoJSON bytes, ids), whatever
        /// its `maxFeatures`: a larger result is cut and marked incomplete. Its published messages total about
        /// as much.
        package var maxResultTotalBytes = 64 << 20
        package init() {}

        /// Room a produced message needs beyond its value (key, headers, record framing), when comparing
        /// ``maxResultBytes`` with librdkafka's `message.max.bytes`.
        static let messageOverhead = 16_384
    }

    package struct Timeouts: Sendable, Hashable {
        /// How long a rebalance waits for work on revoked partitions to finish or be cancelled.
        package var revoke: Duration = .seconds(10)
        /// How long graceful shutdown waits for running requests before cancelling them.
        package var shutdown: Duration = .seconds(30)
        /// A request's deadline when it does not carry one.
        package var request: Duration = .seconds(60)
        /// The oldest a request may be, by its Kafka message's timestamp, and still run; older ones are answered
        /// `expired` (`request_too_old`) without a query. Zero: no bound. 15 minutes: far beyond any sensible
        /// request timeout, so only a backlog (an outage, a new group replaying the topic) reaches it.
        package var maxRequestAge: Duration = .seconds(900)
        /// TCP and TLS connect timeout of one HTTP exchange; at most ``http`` (a longer default is cut to it).
        package var httpConnect: Duration = .seconds(10)
        /// The whole of one HTTP exchange (a request can make many).
        package var http: Duration = .seconds(30)
        package init() {}
    }

    /// The seven built-in examples of `NamedQueryCatalog`, name → clause.
    static let builtInNamedQueries: [String: String] = Dictionary(
        NamedQueryCatalog.builtInExamples.map { ($0.name, $0.clause) }, uniquingKeysWith: { first, _ in first })

    /// `hostname-pid`: unique among the workers of a group, and readable in logs.
    static func defaultWorkerID() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host: String
        if gethostname(&buffer, buffer.count - 1) == 0 {
            host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            host = "worker"
        }
        return "\(host.isEmpty ? "worker" : host)-\(getpid())"
    }
}
