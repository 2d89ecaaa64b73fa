// CRDKafka first: see EmbeddedKafkaCluster+Faults.swift (other files of a batch lose librdkafka's constants).
internal import CRDKafka
internal import CKafkaShims
package import Logging
import ServiceLifecycle
import Synchronization
import FeatureQuerySupport

/// Publishes messages and reports, for each, where the cluster stored it or why it could not.
///
/// `send` resumes when librdkafka's delivery report arrives, not when the message is queued, so a caller
/// that waits for it knows the message is durable (acks from all in-sync replicas, idempotent by default).
/// The local queue is bounded: when it is full, `send` waits for room instead of growing memory.
/// Delivery reports are served by ``run()``, which must be running for `send` to complete.
package final class KafkaProducer: Service, Sendable {
    package let configuration: KafkaProducerConfiguration
    /// The producer's `transactional.id`, when it publishes in transactions (``KafkaTransactions``).
    var transactionalID: String? {
        configuration.client.additionalProperties["transactional.id"]
    }
    let handle: RDKafkaHandle
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// The poll loop's thread, and the bound on waiting for the flush (``stopTimeout(flushTimeout:)``).
    private let thread: KafkaServiceThread

    package init(configuration: KafkaProducerConfiguration, logger: Logger) throws(KafkaError) {
        self.handle = try RDKafkaHandle(
            kind: .producer,
            properties: configuration.properties,
            context: RDKafkaCallbackContext(logger: logger)
        ) { conf in
            rd_kafka_conf_set_dr_msg_cb(conf, KafkaDeliveryBatch.deliveryCallback)
        }
        self.configuration = configuration
        self.logger = logger
        self.thread = KafkaServiceThread(stopTimeout: Self.stopTimeout(flushTimeout: configuration.flushTimeout))
    }

    /// Sends one message and waits for its delivery report.
    @discardableResult
    package func send(_ message: KafkaProducerMessage) async throws(KafkaError) -> KafkaDeliveryReport {
        guard let result = await send([message]).first else {
            throw KafkaError(code: .delivery, message: "no delivery report")
        }
        return try result.get()
    }

    /// Sends messages in order and waits for all their delivery reports, one result per message.
    /// Messages for one partition keep their order.
    ///
    /// `queued` runs once every message is in librdkafka's queue (or has failed to get there), before the
    /// delivery reports: from then on the messages' memory is bounded by the producer's queue limits, so a
    /// caller that bounds its own work can count this send as finished there and leave waiting for the
    /// cluster's acknowledgement to the reports.
    package func send(
        _ messages: [KafkaProducerMessage], queued: () -> Void = {}
    ) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        let batch = KafkaDeliveryBatch(count: messages.count)
        await enqueueAll(messages, into: batch)
        queued()
        return await batch.wait { messages[$0].topic }
    }

    /// Sends messages in order and returns once every message is in librdkafka's queue (or has failed to get
    /// there), after calling `queued`; `whenDelivered` then gets one result per message when the last delivery
    /// report is in, on the producer's poll thread (or in this call, if every report is in by then).
    ///
    /// For a caller whose next step needs no task: a report reaches it without resuming one, so a busy
    /// producer's poll thread hands a whole poll's reports over without waking a thread per message, and the
    /// sending task may end as soon as its messages are queued. `whenDelivered` runs on the poll thread: keep
    /// it short and never block in it.
    package func send(
        _ messages: [KafkaProducerMessage], queued: () -> Void = {},
        whenDelivered: @escaping @Sendable ([Result<KafkaDeliveryReport, KafkaError>]) -> Void
    ) async {
        let batch = KafkaDeliveryBatch(topics: messages.map(\.topic), whenDelivered: whenDelivered)
        await enqueueAll(messages, into: batch)
        queued()
        batch.arm()
    }

    /// Queues every message in order, waiting for room while the local queue is full (it drains as delivery
    /// reports arrive). A cancelled sender fails what it has not queued yet.
    private func enqueueAll(_ messages: [KafkaProducerMessage], into batch: KafkaDeliveryBatch) async {
        var next = 0
        while next < messages.count {
            next = enqueue(messages, from: next, into: batch)
            guard next < messages.count else { break }
            do {
                try await Task.sleep(for: .milliseconds(1))
            } catch {
                batch.complete(next, .failed(KafkaError(code: .cancelled, message: "cancelled while waiting for room in the producer queue")))
                next += 1
            }
        }
    }

    /// Queues `messages` from index `first` on, in order, failing in `batch` those that cannot be queued; returns
    /// the index of the first message that found the queue full (to be tried again after a pause), or the
    /// message count when all were handled. Synchronous and not inlined into ``send(_:queued:)``, whose locals
    /// live in its task's heap frame.
    @inline(never)
    private func enqueue(_ messages: [KafkaProducerMessage], from first: Int, into batch: KafkaDeliveryBatch) -> Int {
        for index in first..<messages.count {
            if closed.load(ordering: .relaxed) {
                batch.complete(index, .failed(KafkaError(code: .shutdown, message: "the producer is shut down")))
                continue
            }
            let message = messages[index]
            let err = produce(message, opaque: batch.opaque(index))
            if err == RD_KAFKA_RESP_ERR_NO_ERROR {
                // Serve delivery reports that are ready on this thread too, as the C client does: fewer
                // hand-offs to the poll thread on a busy producer. Never blocks.
                if index & 1023 == 1023 { rd_kafka_poll(handle.pointer, 0) }
                continue
            }
            if err == RD_KAFKA_RESP_ERR__QUEUE_FULL { return index }
            let error = KafkaError.rdKafka(err, context: "queueing a message for \(message.topic)", defaultCode: .delivery)
            batch.complete(index, .failed(error))
        }
        return messages.count
    }

    /// Serves delivery reports until graceful shutdown or cancellation, then flushes what is queued
    /// (up to `flushTimeout`) and fails the rest with a `shutdown` error.
    ///
    /// Returns at most ``stopTimeout(flushTimeout:)`` after being told to stop, whatever the cluster does (see
    /// ``KafkaProducerConfiguration/flushTimeout``).
    /// Asks the cluster for these topics' partitions now, so that the first message to each does not wait for
    /// them (most of a second): what a worker that just joined its group, with a backlog to answer, publishes
    /// first. Returns the topics whose metadata came within `timeout`; the others are looked up at their first
    /// message, as usual.
    @discardableResult
    package func loadMetadata(for topics: [String], timeout: Duration) async -> [String] {
        await handle.loadTopicMetadata(topics, timeout: timeout)
    }

    package func run() async throws {
        try await KafkaPollThread.runService(name: "kafka-producer", handle: handle, thread: thread) {
            self.pollLoop()
        } stop: {
            self.triggerGracefulShutdown()
        }
    }

    package func triggerGracefulShutdown() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        thread.stopRequested()
    }

    /// Fails every message not yet delivered at once, and every later `send`: each `send` waiting for
    /// delivery reports returns, its undelivered messages failed with a `shutdown` error.
    ///
    /// For a shutdown that must end in bounded time while the cluster is unreachable: a `send` otherwise waits
    /// for its reports up to `messageTimeout` (two minutes by default), and a caller cannot stop waiting on its
    /// own, because librdkafka still holds its messages. Messages already on the wire may still reach the
    /// cluster: a caller that sends again what failed here may duplicate them (at-least-once). The delivery
    /// reports are served by ``run()``, which goes on until its own shutdown.
    package func failPendingDeliveries() {
        guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        logger.warning("failing undelivered messages", metadata: ["queued": .stringConvertible(rd_kafka_outq_len(handle.pointer))])
        purge()
    }

    /// How long ``run()`` may take once told to stop: the flush, then the reports of what the flush left
    /// (purged), then a second for the thread to end.
    static func stopTimeout(flushTimeout: Duration) -> Duration { flushTimeout + purgeReportsTimeout + .seconds(1) }

    /// How long the poll loop serves the (failed) delivery reports of purged messages. librdkafka reports
    /// purged messages at once; this only bounds the loop.
    static let purgeReportsTimeout = Duration.seconds(1)

    private func pollLoop() {
        let rk = handle.pointer
        while !stopRequested.load(ordering: .relaxed) {
            // A fatal error (an idempotent producer whose sequence the cluster no longer accepts) fails every
            // later delivery: the loop ends and ``run()`` throws it, so the owner stops instead of retrying.
            if handle.context.fatalError.withLock({ $0 }) != nil { break }
            rd_kafka_poll(rk, 50)
            // After failPendingDeliveries(): a `send` that passed its check just before may still have queued
            // a message; it is failed here, within one round.
            if closed.load(ordering: .relaxed), rd_kafka_outq_len(rk) > 0 { purge() }
        }
        closed.store(true, ordering: .sequentiallyConsistent)
        let flushed = rd_kafka_flush(rk, Int32(clamping: configuration.flushTimeout.clampedMilliseconds))
        if flushed != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.warning("flush timed out; failing undelivered messages", metadata: ["queued": .stringConvertible(rd_kafka_outq_len(rk))])
            purge()
            // Purged messages get their (failed) delivery reports through the poll.
            let deadline = ContinuousClock.now + Self.purgeReportsTimeout
            while rd_kafka_outq_len(rk) > 0, ContinuousClock.now < deadline {
                rd_kafka_poll(rk, 50)
            }
        }
        rd_kafka_poll(rk, 0)
        logger.info("producer stopped")
    }

    /// Fails queued and in-flight messages; their delivery reports come through the poll. Never blocks.
    private func purge() {
        _ = rd_kafka_purge(handle.pointer, Int32(RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT))
    }

    /// Queues one message; `opaque` nil for a message whose delivery report nobody waits for (a transaction's:
    /// its commit says whether it was delivered).
    func produce(_ message: KafkaProducerMessage, opaque: UnsafeMutableRawPointer?) -> rd_kafka_resp_err_t {
        let headers = makeHeaders(message.headers)
        let err = message.topic.withCString { topic in
            withBytes(message.key) { key, keyLength in
                withBytes(message.value) { value, valueLength in
                    qw_kafka_produce(
                        handle.pointer, topic, message.partition ?? RD_KAFKA_PARTITION_UA,
                        key, keyLength, value, valueLength, headers, message.timestampMs ?? 0, opaque
                    )
                }
            }
        }
        if err != RD_KAFKA_RESP_ERR_NO_ERROR, let headers { rd_kafka_headers_destroy(headers) }
        return err
    }

    private func makeHeaders(_ headers: [KafkaHeader]) -> OpaquePointer? {
        guard !headers.isEmpty, let list = rd_kafka_headers_new(headers.count) else { return nil }
        for header in headers {
            _ = withBytes(header.value) { value, length in
                rd_kafka_header_add(list, header.key, -1, value, length)
            }
        }
        return list
    }
}

/// Lends the bytes of an optional byte array (nil stays nil, empty stays empty) to a C call.
private func withBytes<T>(_ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) -> T) -> T {
    guard let bytes else { return body(nil, 0) }
    return bytes.withUnsafeBytes { buffer in
        // An empty array may have no base address; Kafka distinguishes empty from absent, so give it one.
        if let base = buffer.baseAddress { return body(base, buffer.count) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { body(UnsafeRawPointer($0.baseAddress), 0) }
    }
}
