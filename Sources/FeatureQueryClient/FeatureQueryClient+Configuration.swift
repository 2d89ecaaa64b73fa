extension FeatureQueryClient {
    /// Where the client publishes and reads, and how it waits.
    public struct Configuration: Sendable, Hashable {
        /// The Kafka cluster, `host:port` each.
        public var bootstrapServers: [String]
        /// The topic jobs and cancels are published to (the workers' requests topic).
        public var requestsTopic: String
        /// The topics the workers publish results and errors to.
        public var resultsTopic: String
        public var errorsTopic: String
        /// The topic the workers publish progress events to (``FeatureQueryClient/progress(of:)``); `nil` reads
        /// none. A topic that does not exist is skipped (progress is optional for workers too).
        public var progressTopic: String?
        /// A name for the client's Kafka connections (logs, quotas).
        public var clientID: String
        /// Whether outcomes are read `read_committed`: set it when the workers run with `exactlyOnce`, so that
        /// an outcome of a transaction that never committed is never seen (docs/contract/README.md, "Exactly
        /// once, on demand"); otherwise outcomes are read `read_uncommitted`, as soon as they are published.
        public var readCommitted: Bool
        /// How many jobs may be published and unanswered at once; further calls wait for a slot.
        public var maxInFlight: Int
        /// How long a call waits for its outcome unless it says otherwise.
        public var defaultTimeout: Duration
        /// How long the broker may hold a fetch before answering: shorter answers sooner on a quiet topic.
        /// `nil` keeps librdkafka's default (500 ms).
        public var fetchWaitMax: Duration?
        /// Further librdkafka properties of both clients (security settings, …).
        public var kafkaProperties: [String: String]
        /// How long publishing one message may take (librdkafka's `message.timeout.ms`) before the call fails
        /// with ``FeatureQueryError/Code/kafka``: a wrong bootstrap address shows up after this, not after minutes.
        public var publishTimeout: Duration
        /// Whether the client reads outcomes. `false` makes a client that only publishes (``FeatureQueryClient/publish(_:)``,
        /// ``FeatureQueryClient/cancel(taskId:)``): it needs no outcome topics, and ``FeatureQueryClient/submit(_:timeout:)``
        /// fails with ``FeatureQueryError/Code/notReading``.
        public var readsOutcomes: Bool

        /// A value with these members.
        public init(
            bootstrapServers: [String], requestsTopic: String = "feature-queries",
            resultsTopic: String = "feature-query-results", errorsTopic: String = "feature-query-errors",
            progressTopic: String? = "feature-query-progress",
            clientID: String = "feature-query-client", readCommitted: Bool = false, maxInFlight: Int = 1_000,
            defaultTimeout: Duration = .seconds(60), fetchWaitMax: Duration? = nil, kafkaProperties: [String: String] = [:],
            publishTimeout: Duration = .seconds(30), readsOutcomes: Bool = true
        ) {
            self.bootstrapServers = bootstrapServers
            self.requestsTopic = requestsTopic
            self.resultsTopic = resultsTopic
            self.errorsTopic = errorsTopic
            self.progressTopic = progressTopic
            self.clientID = clientID
            self.readCommitted = readCommitted
            self.maxInFlight = maxInFlight
            self.defaultTimeout = defaultTimeout
            self.fetchWaitMax = fetchWaitMax
            self.kafkaProperties = kafkaProperties
            self.publishTimeout = publishTimeout
            self.readsOutcomes = readsOutcomes
        }
    }
}
