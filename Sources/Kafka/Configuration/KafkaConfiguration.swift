import FeatureQuerySupport

/// Settings that every Kafka client has, consumer or producer.
///
/// Typed fields cover what the worker sets; ``additionalProperties`` passes anything else straight to
/// librdkafka, so an operator can set any documented property without a code change. Every property is
/// checked by librdkafka when the client is created: an unknown name or a bad value fails at start with an
/// error that names it.
package struct KafkaClientConfiguration: Sendable, Hashable {
    /// `host:port` of one or more brokers.
    package var bootstrapServers: [String]
    package var clientID: String
    /// How often librdkafka emits statistics to the log (debug level); `nil` turns statistics off.
    package var statisticsInterval: Duration?
    /// librdkafka debug contexts (`"broker,cgrp"`), logged at debug level.
    package var debugContexts: String?
    /// Any librdkafka property, applied after the typed fields so that it can override them.
    package var additionalProperties: [String: String]

    package init(
        bootstrapServers: [String],
        clientID: String = "query-worker",
        statisticsInterval: Duration? = nil,
        debugContexts: String? = nil,
        additionalProperties: [String: String] = [:]
    ) {
        self.bootstrapServers = bootstrapServers
        self.clientID = clientID
        self.statisticsInterval = statisticsInterval
        self.debugContexts = debugContexts
        self.additionalProperties = additionalProperties
    }

    var properties: [(String, String)] {
        var result: [(String, String)] = [
            ("bootstrap.servers", bootstrapServers.joined(separator: ",")),
            ("client.id", clientID),
        ]
        if let statisticsInterval {
            result.append(("statistics.interval.ms", String(statisticsInterval.clampedMilliseconds)))
        }
        if let debugContexts { result.append(("debug", debugContexts)) }
        return result
    }
}

/// Properties in the order librdkafka should see them: typed ones, then the pass-through ones.
func orderedProperties(_ typed: [(String, String)], additional: [String: String]) -> [(String, String)] {
    typed + additional.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
}
