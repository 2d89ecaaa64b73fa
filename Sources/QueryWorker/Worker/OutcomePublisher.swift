import Kafka
import Logging

/// A terminal outcome on its way out: a result (possibly split into parts) or an error.
enum OutcomeMessage: Sendable {
    case result(ResultMessage)
    case error(ErrorMessage)
}

extension LayerResult {
    /// The layer's count for logs; 0 for a failed layer.
    var reportedCount: Int {
        if case .succeeded(let count, _, _) = outcome { return count }
        return 0
    }
}

/// Sends outcomes to the result and error topics and reports whether every part was delivered.
///
/// A result too large for one message goes as ordered parts; one that cannot be split to fit (a single
/// feature over the limit) is answered `failed` with `result_too_large` instead, so the request still gets
/// exactly one outcome. Delivery failures are retried by librdkafka within its message timeout; a part that
/// still fails leaves the request's offset unstored, so the request runs again after a restart.
struct OutcomePublisher: Sendable {
    let producer: KafkaProducer
    let settings: WorkerSettings
    let logger: Logger

    func publish(_ outcome: OutcomeMessage, source: MessageSource) async -> Bool {
        let messages: [KafkaProducerMessage]
        switch outcome {
        case .result(let result):
            do {
                messages = try result.producerMessages(topic: settings.topics.results, maxBytes: settings.limits.maxResultBytes)
            } catch {
                let failure = ErrorMessage(
                    requestId: result.requestId, taskId: result.taskId, status: .failed, error: error,
                    source: source,
                    worker: settings.workerID, receivedAt: result.receivedAt, finishedAt: result.finishedAt)
                messages = [failure.producerMessage(topic: settings.topics.errors)]
            }
        case .error(let error):
            messages = [error.producerMessage(topic: settings.topics.errors)]
        }
        let reports = await producer.send(messages)
        var delivered = true
        for case .failure(let error) in reports {
            delivered = false
            logger.error("publishing an outcome failed", metadata: ["error.code": "\(error.code)", "error": "\(error.message)"])
        }
        return delivered
    }
}
