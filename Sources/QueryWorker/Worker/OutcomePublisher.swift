import Kafka
import Logging
import RequestContract

/// Sends outcomes to the result and error topics and reports whether every part was delivered.
///
/// A result too large for one message goes as ordered parts; one that cannot be split to fit (a single
/// feature over the limit) is answered `failed` with `result_too_large` instead, so the request still gets
/// exactly one outcome. librdkafka retries a delivery within its message timeout; what still fails comes back
/// as the error, and the worker decides (see ``WorkerCore/deliver(_:)``).
struct OutcomePublisher: Sendable {
    let producer: KafkaProducer
    let settings: WorkerSettings
    let logger: Logger

    /// Sends the outcome and returns once its messages are in the producer's queue, after calling `queued`;
    /// `reported` then gets nil once every part is delivered, else the first delivery error, on the producer's
    /// poll thread (see ``KafkaProducer/send(_:queued:whenDelivered:)``).
    func publish(
        _ outcome: OutcomeMessage, source: MessageSource, queued: () -> Void,
        reported: @escaping @Sendable (KafkaError?) -> Void
    ) async {
        await producer.send(messages(outcome, source: source), queued: queued) { reports in
            for case .failure(let error) in reports { return reported(error) }
            reported(nil)
        }
    }

    /// The outcome's messages. Not inlined: encoding's locals would otherwise sit in the calling task's frame.
    @inline(never)
    func messages(_ outcome: OutcomeMessage, source: MessageSource) -> [KafkaProducerMessage] {
        let messages: [KafkaProducerMessage]
        switch outcome {
        case .result(let result):
            do {
                messages = try result.producerMessages(topic: settings.topics.results, maxBytes: settings.limits.maxResultBytes)
            } catch {
                messages = [undeliverable(result, error, source: source).producerMessage(topic: settings.topics.errors)]
            }
        case .error(let error):
            messages = [error.producerMessage(topic: settings.topics.errors)]
        }
        return source.trace?.stamp(messages) ?? messages
    }

    /// The `failed` outcome standing in for a result that cannot be sent: `error` says why (too large to split,
    /// or refused by the cluster as too large).
    func undeliverable(_ result: ResultMessage, _ error: ContractError, source: MessageSource) -> ErrorMessage {
        ErrorMessage(
            requestId: result.requestId, taskId: result.taskId, status: .failed, error: error, source: source,
            worker: settings.workerID, receivedAt: result.receivedAt, finishedAt: result.finishedAt)
    }
}
