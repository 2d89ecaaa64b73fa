internal import CRDKafka
import Glibc
import Synchronization

/// Collects the delivery reports of one `send` call and resumes the caller when the last one is in, or, for a
/// send that does not wait (``KafkaProducer/send(_:queued:whenDelivered:)``), calls its handler there.
///
/// One allocation per batch, not per message: each message's opaque points at its slot, and each slot's
/// outcome is written exactly once (by the poll thread's delivery callback, or by the sender when the
/// message was never queued). The atomic countdown orders those writes before the read at the end.
///
/// A batch with a handler counts one more than its messages, released by the sender with ``arm()`` once it
/// has done what must come before the reports (its `queued`), and keeps itself alive until the handler ran:
/// no task holds it meanwhile.
final class KafkaDeliveryBatch: @unchecked Sendable {
    typealias Reports = [Result<KafkaDeliveryReport, KafkaError>]

    enum Outcome {
        case delivered(partition: Int32, offset: Int64)
        case failed(KafkaError)
    }

    struct Slot {
        let batch: Unmanaged<KafkaDeliveryBatch>
        let index: Int
    }

    let count: Int
    private let slots: UnsafeMutablePointer<Slot>
    private let outcomes: UnsafeMutablePointer<Outcome?>
    private let remaining: Atomic<Int>
    private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
    /// The handler of a send that does not wait, and its messages' topics (for the reports).
    private let handler: (whenDelivered: @Sendable (Reports) -> Void, topics: [String])?

    /// A batch whose sender waits for it (``wait(topics:)``).
    convenience init(count: Int) {
        self.init(count: count, handler: nil)
    }

    /// A batch that calls `whenDelivered` with every report, on the thread that completes it last, once the
    /// sender has called ``arm()``. It holds itself until then.
    convenience init(topics: [String], whenDelivered: @escaping @Sendable (Reports) -> Void) {
        self.init(count: topics.count, handler: (whenDelivered, topics))
        _ = Unmanaged.passRetained(self)
    }

    private init(count: Int, handler: (whenDelivered: @Sendable (Reports) -> Void, topics: [String])?) {
        self.count = count
        self.handler = handler
        remaining = Atomic(handler == nil ? count : count + 1)
        slots = .allocate(capacity: max(1, count))
        outcomes = .allocate(capacity: max(1, count))
        outcomes.initialize(repeating: nil, count: max(1, count))
        let unmanaged = Unmanaged.passUnretained(self)
        for index in 0..<count {
            (slots + index).initialize(to: Slot(batch: unmanaged, index: index))
        }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
        outcomes.deinitialize(count: max(1, count))
        outcomes.deallocate()
    }

    /// The opaque handed to librdkafka for message `index`. Valid while the sender awaits ``wait()``.
    func opaque(_ index: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(slots + index) }

    func complete(_ index: Int, _ outcome: Outcome) {
        outcomes[index] = outcome
        countDown()
    }

    /// The sender of a batch with a handler is done with what comes before the reports: from now on the last
    /// report (or this call, if every report is in) calls the handler.
    func arm() {
        countDown()
    }

    private func countDown() {
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        guard let handler else {
            waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }?.resume()
            return
        }
        handler.whenDelivered(reports { handler.topics[$0] })
        Unmanaged.passUnretained(self).release()  // the reference taken in init; the caller holds another
    }

    /// Waits for every report. Delivery can't be called back once a message is queued, so this does not
    /// end early on cancellation: the caller learns what happened to each message.
    func wait(topics: (Int) -> String) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        if remaining.load(ordering: .acquiring) > 0 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = waiter.withLock { waiter -> Bool in
                    if remaining.load(ordering: .acquiring) == 0 { return true }
                    waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
        return reports(topics)
    }

    /// One result per message, once every report is in.
    private func reports(_ topics: (Int) -> String) -> Reports {
        (0..<count).map { index in
            switch outcomes[index] {
            case .delivered(let partition, let offset)?:
                .success(KafkaDeliveryReport(topic: topics(index), partition: partition, offset: offset))
            case .failed(let error)?:
                .failure(error)
            case nil:
                .failure(KafkaError(code: .delivery, message: "no delivery report"))
            }
        }
    }

    /// Blocks this thread until every report is in, checking every millisecond: for the transaction thread,
    /// whose commit or abort has already made librdkafka report every message (the poll thread hands them
    /// over within a round). False after `timeout`: the caller must then keep the batch alive for good.
    func waitSynchronously(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while remaining.load(ordering: .acquiring) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// Message `index`'s failure, once every report is in (``waitSynchronously(timeout:)``); nil if delivered.
    func failure(_ index: Int) -> KafkaError? {
        guard remaining.load(ordering: .acquiring) == 0, case .failed(let error)? = outcomes[index] else { return nil }
        return error
    }

    /// librdkafka's `dr_msg_cb`: runs on the producer's poll thread for every message, delivered or failed.
    static let deliveryCallback: @convention(c) (OpaquePointer?, UnsafePointer<rd_kafka_message_t>?, UnsafeMutableRawPointer?) -> Void = {
        rk, message, _ in
        guard let message else { return }
        if message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR { RDKafkaCallbackContext.from(handle: rk)?.heardFromCluster() }
        // A transaction's messages carry no slot: the transaction's commit reports on them.
        guard let opaque = message.pointee._private else { return }
        let slot = opaque.assumingMemoryBound(to: Slot.self).pointee
        let batch = slot.batch.takeUnretainedValue()  // a strong reference for the rest of this call
        let raw = message.pointee
        if raw.err == RD_KAFKA_RESP_ERR_NO_ERROR {
            batch.complete(slot.index, .delivered(partition: raw.partition, offset: raw.offset))
        } else {
            let topic = raw.rkt.flatMap { rd_kafka_topic_name($0) }.map { String(cString: $0) } ?? "?"
            batch.complete(slot.index, .failed(KafkaError.rdKafka(raw.err, context: "delivery to \(topic) failed", defaultCode: .delivery)))
        }
    }
}
