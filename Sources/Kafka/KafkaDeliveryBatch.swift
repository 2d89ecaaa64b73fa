internal import CRDKafka
import Synchronization

/// Collects the delivery reports of one `send` call and resumes the caller when the last one is in.
final class KafkaDeliveryBatch: Sendable {
    private struct State {
        var results: [Result<KafkaDeliveryReport, KafkaError>?]
        var remaining: Int
        var continuation: CheckedContinuation<[Result<KafkaDeliveryReport, KafkaError>], Never>?
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(results: Array(repeating: nil, count: count), remaining: count))
    }

    func complete(_ index: Int, _ result: Result<KafkaDeliveryReport, KafkaError>) {
        let resume = state.withLock { state -> (CheckedContinuation<[Result<KafkaDeliveryReport, KafkaError>], Never>, [Result<KafkaDeliveryReport, KafkaError>])? in
            guard state.results[index] == nil else { return nil }
            state.results[index] = result
            state.remaining -= 1
            guard state.remaining == 0, let continuation = state.continuation else { return nil }
            state.continuation = nil
            return (continuation, state.results.compactMap { $0 })
        }
        if let (continuation, results) = resume { continuation.resume(returning: results) }
    }

    /// Waits for every report. Delivery can't be called back once a message is queued, so this does not
    /// end early on cancellation: the caller learns what happened to each message.
    func wait() async -> [Result<KafkaDeliveryReport, KafkaError>] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Result<KafkaDeliveryReport, KafkaError>]? in
                if state.remaining == 0 { return state.results.compactMap { $0 } }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// The per-message opaque handed to librdkafka: which batch, which slot.
final class KafkaDeliveryTicket: Sendable {
    let batch: KafkaDeliveryBatch
    let index: Int
    let topic: String

    init(batch: KafkaDeliveryBatch, index: Int, topic: String) {
        self.batch = batch
        self.index = index
        self.topic = topic
    }

    /// librdkafka's `dr_msg_cb`: runs on the producer's poll thread for every message, delivered or failed.
    static let deliveryCallback: @convention(c) (OpaquePointer?, UnsafePointer<rd_kafka_message_t>?, UnsafeMutableRawPointer?) -> Void = {
        _, message, _ in
        guard let message, let opaque = message.pointee._private else { return }
        let ticket = Unmanaged<KafkaDeliveryTicket>.fromOpaque(opaque).takeRetainedValue()
        let raw = message.pointee
        if raw.err == RD_KAFKA_RESP_ERR_NO_ERROR {
            ticket.batch.complete(
                ticket.index,
                .success(KafkaDeliveryReport(topic: ticket.topic, partition: raw.partition, offset: raw.offset))
            )
        } else {
            let error = KafkaError.rdKafka(raw.err, context: "delivery to \(ticket.topic) failed", defaultCode: .delivery)
            ticket.batch.complete(ticket.index, .failure(error))
        }
    }
}
