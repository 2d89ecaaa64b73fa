extension WorkerSettings {
    /// Exactly-once outcomes (`exactlyOnce`): each outcome and the offsets it completes go in one Kafka
    /// transaction, so a reader with `isolation.level=read_committed` sees every request answered once even
    /// after a worker dies (docs/operations.md, "Exactly-once outcomes").
    package struct ExactlyOnce: Sendable, Hashable {
        package var enabled = false
        /// The producer's `transactional.id`; `nil`: the group id and the worker id (``transactionalID(groupID:workerID:)``).
        package var transactionalID: String?
        /// How long outcomes gather before one transaction commits them.
        package var interval = Duration.milliseconds(50)
        package init() {}

        /// The `transactional.id` in force. Stable across restarts when the worker id is (a StatefulSet's pod
        /// name): a restarted worker then fences its dead predecessor and aborts its open transaction at once,
        /// instead of after `transaction.timeout.ms`. Two live workers must never share it: the newer fences the
        /// older, which stops (exit status 3).
        package func transactionalID(groupID: String, workerID: String) -> String {
            transactionalID ?? "\(groupID).\(workerID)"
        }
    }
}

extension SettingsKey {
    package static let exactlyOnce = SettingsKey(
        "exactlyOnce", .bool,
        "Publish outcomes and commit offsets in Kafka transactions (readers use isolation.level=read_committed).")
    package static let transactionalID = SettingsKey(
        "transactionalId", .text, "With exactlyOnce: the producer's transactional.id; unique per live worker, stable across its restarts.")
    package static let transactionInterval = SettingsKey(
        "transactionInterval", .duration, "With exactlyOnce: how long outcomes gather before a transaction commits them (1ms to 10s).")

    /// The exactly-once keys, in the order `--help` lists them.
    static let exactlyOnceKeys = [exactlyOnce, transactionalID, transactionInterval]

    /// ``defaultText`` of the exactly-once keys.
    static func exactlyOnceDefaultTexts(_ defaults: WorkerSettings) -> [String: String] {
        [
            exactlyOnce.name: String(defaults.exactlyOnce.enabled),
            transactionalID.name: "<groupId>.<workerId>",
            transactionInterval.name: durationText(defaults.exactlyOnce.interval),
        ]
    }
}

extension SettingsResolver {
    /// The exactly-once settings; after the librdkafka properties, three of which it owns.
    mutating func resolveExactlyOnce(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.exactlyOnce) {
            settings.exactlyOnce.enabled = try found.bool()
            // The transactions name the producer, and the consumer must skip aborted transactions: a passed-through
            // property that changed either would fence the wrong process or read what was never committed.
            // (`kafka.enable.auto.commit` is refused for every worker: offsets are the worker's own.)
            let owned = ["transactional.id", "isolation.level"]
            if settings.exactlyOnce.enabled, let property = owned.first(where: { settings.kafkaProperties[$0] != nil }) {
                throw found.error(
                    "exactlyOnce sets kafka.\(property) itself: remove it (the producer's name is transactionalId)",
                    code: .conflict)
            }
        }
        if let found = try find(.transactionalID) {
            settings.exactlyOnce.transactionalID = try SettingsValidation.name(found, maxLength: 255)
        }
        if let found = try find(.transactionInterval) {
            let interval = try found.duration()
            guard interval >= .milliseconds(1), interval <= .seconds(10) else {
                throw found.error("transactionInterval must be between 1ms and 10s, got \(interval)")
            }
            settings.exactlyOnce.interval = interval
        }
    }
}
