/// The consumer's messages as an `AsyncSequence`. The iterator takes messages from the read-ahead buffer in
/// batches, so a busy reader pays one lock round per batch.
public struct KafkaConsumerMessages: AsyncSequence, Sendable {
    public typealias Element = KafkaConsumerMessage
    let consumer: KafkaConsumer

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Holding the consumer keeps its client alive while the sequence is read.
        let consumer: KafkaConsumer
        private var core: KafkaConsumerCore { consumer.core }
        private var batch: [KafkaConsumerMessage] = []
        private var index = 0
        private var revocationsSeen = 0

        init(consumer: KafkaConsumer) {
            self.consumer = consumer
        }

        public mutating func next() async throws -> KafkaConsumerMessage? {
            while true {
                if index < batch.count {
                    let message = batch[index]
                    index += 1
                    // A revocation since this batch was taken: skip messages of partitions no longer ours.
                    if core.revocations.load(ordering: .sequentiallyConsistent) != revocationsSeen,
                        !core.state.withLock({ $0.stillAssigned(message) })
                    {
                        continue
                    }
                    return message
                }
                revocationsSeen = core.revocations.load(ordering: .sequentiallyConsistent)
                guard let next = try await nextBatch() else { return nil }
                batch = next
                index = 0
            }
        }

        private func nextBatch() async throws -> [KafkaConsumerMessage]? {
            let core = self.core
            switch core.take() {
            case .messages(let messages): return messages
            case .finished(let error):
                if let error { throw error }
                return nil
            case .wait:
                break
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: KafkaConsumerCore.Waiter) in
                    switch core.take(orSuspend: continuation) {
                    case .wait: break
                    case .messages(let messages): continuation.resume(returning: messages)
                    case .finished(let error):
                        if Task.isCancelled {
                            continuation.resume(throwing: CancellationError())
                        } else if let error {
                            continuation.resume(throwing: error)
                        } else {
                            continuation.resume(returning: nil)
                        }
                    }
                }
            } onCancel: {
                core.state.withLock { $0.cancelWaiter() }?.resume(throwing: CancellationError())
            }
        }
    }
}
