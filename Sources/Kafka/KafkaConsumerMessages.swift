import ServiceLifecycle
import Synchronization

/// The consumer's messages as an `AsyncSequence`. The iterator takes messages from the read-ahead buffer in
/// batches, so a busy reader pays one lock round per batch.
package struct KafkaConsumerMessages: AsyncSequence, Sendable {
    package typealias Element = KafkaConsumerMessage
    let consumer: KafkaConsumer
    /// Whether the sequence ends on graceful shutdown (``endingOnGracefulShutdown()``).
    var endsOnGracefulShutdown = false

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: consumer, endsOnGracefulShutdown: endsOnGracefulShutdown)
    }

    /// The messages until graceful shutdown (of the task's service group), as ServiceLifecycle's
    /// `cancelOnGracefulShutdown()` gives them, but without its cost per message: that wrapper merges the
    /// sequence with the shutdown signal, which moves every message through a second task and a continuation.
    /// Here the iterator checks the shutdown flag before each message and only its waits for messages listen
    /// for the signal. Cancellation still ends the sequence with `CancellationError`.
    package func endingOnGracefulShutdown() -> KafkaConsumerMessages {
        var messages = self
        messages.endsOnGracefulShutdown = true
        return messages
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        /// Holding the consumer keeps its client alive while the sequence is read.
        let consumer: KafkaConsumer
        private var core: KafkaConsumerCore { consumer.core }
        private var batch: [KafkaConsumerMessage] = []
        private var index = 0
        private var revocationsSeen = 0
        private let endsOnGracefulShutdown: Bool

        init(consumer: KafkaConsumer, endsOnGracefulShutdown: Bool) {
            self.consumer = consumer
            self.endsOnGracefulShutdown = endsOnGracefulShutdown
        }

        package mutating func next() async throws -> KafkaConsumerMessage? {
            while true {
                if endsOnGracefulShutdown, Task.isShuttingDownGracefully { return nil }
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
            guard endsOnGracefulShutdown else { return try await wait(core) }
            return try await withGracefulShutdownHandler {
                try await wait(core)
            } onGracefulShutdown: {
                core.state.withLock { $0.interruptReader() }?.resume(returning: nil)
            }
        }

        /// Waits for the next batch; nil when the consumer has finished or the wait was interrupted.
        private func wait(_ core: KafkaConsumerCore) async throws -> [KafkaConsumerMessage]? {
            try await withTaskCancellationHandler {
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
