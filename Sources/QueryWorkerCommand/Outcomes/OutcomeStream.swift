import Foundation
import Kafka
import Logging
import QueryOutcomes

/// Whole outcomes read from the results and errors topics.
///
/// The reader joins no group: it is given every partition of both topics and reads from a start it resolved
/// to concrete offsets before returning the stream (``Start``), skipping other requests' outcomes by their
/// `request-id` header without parsing them. `query --wait` starts at the time it publishes the request:
/// the offsets are fixed before the request exists, so its outcome, published later, is always read, and
/// hours of older outcomes on a production topic are not. The demo, whose topics are new, reads from the
/// beginning. Nothing is committed.
///
/// One iterator for the stream's whole life.
struct OutcomeStream {
    /// Where reading starts.
    enum Start: Sendable {
        /// Every message the topics still hold.
        case beginning
        /// The first message stamped at or after this time (milliseconds since the epoch) in each partition,
        /// or the partition's end when it holds none yet.
        case timestampMs(Int64)
    }

    /// Outcome messages stamped (by their producer, in milliseconds since the epoch) before this are
    /// skipped: an earlier request's outcome under a reused requestId is not this request's.
    let notBeforeMs: Int64?
    private var iterator: AsyncThrowingStream<KafkaConsumerMessage, any Error>.AsyncIterator
    private var collector: OutcomeCollector

    init(reader: KafkaPartitionReader, wanted: Set<String>?, notBeforeMs: Int64?) {
        self.notBeforeMs = notBeforeMs
        iterator = reader.messages.makeAsyncIterator()
        collector = OutcomeCollector(wanted: wanted)
    }

    /// The next whole outcome; `nil` when the stream ended (its deadline passed).
    mutating func next() async throws -> OutcomeCollector.Completed? {
        while let message = try await iterator.next(isolation: #isolation) {
            if let notBeforeMs, let stamp = message.timestampMs, stamp < notBeforeMs { continue }
            if collector.skips(requestIdHeader: message.header("request-id")?.stringValue) { continue }
            guard let value = message.value else { continue }
            if let completed = try collector.add(value) { return completed }
        }
        return nil
    }

    /// How long looking up the topics' partitions and start offsets may take.
    static let lookupTimeout: Duration = .seconds(15)

    /// Runs `body` with a stream over `topics` from `start` that ends at `deadline`, then stops the reader.
    ///
    /// The partitions and start offsets are resolved before `body` runs. The deadline stops the reader
    /// rather than racing each read, so `body` sees a `nil` from ``next()`` and can report what is missing.
    static func withStream<T>(
        client: KafkaClientConfiguration,
        fetchWaitMax: Duration?,
        topics: [String],
        start: Start,
        wanted: Set<String>?,
        notBeforeMs: Int64? = nil,
        deadline: ContinuousClock.Instant,
        logger: Logger,
        _ body: (inout OutcomeStream) async throws -> T
    ) async throws -> T {
        let reader = try KafkaPartitionReader(client: client, fetchWaitMax: fetchWaitMax, logger: logger)
        let partitions = try await reader.partitions(of: topics, timeout: lookupTimeout)
        switch start {
        case .beginning:
            try reader.assign(Dictionary(uniqueKeysWithValues: partitions.map { ($0, KafkaPartitionReader.beginning) }))
        case .timestampMs(let timestampMs):
            let offsets = try await reader.startOffsets(atOrAfterTimestampMs: timestampMs, of: partitions, timeout: lookupTimeout)
            try reader.assign(offsets)
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await reader.run() }
            group.addTask {
                try? await Task.sleep(until: deadline)
                reader.triggerGracefulShutdown()
            }
            var stream = OutcomeStream(reader: reader, wanted: wanted, notBeforeMs: notBeforeMs)
            let result: Result<T, any Error>
            do {
                result = .success(try await body(&stream))
            } catch {
                result = .failure(error)
            }
            reader.triggerGracefulShutdown()
            group.cancelAll()
            try await group.waitForAll()
            return try result.get()
        }
    }
}
