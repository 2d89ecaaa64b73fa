import FeatureQuerySupport
import Kafka
import Logging
import Synchronization
import RequestContract

extension WorkerCore {
    /// Publishes one answer in the exactly-once mode: its messages join the next transaction, and its request
    /// is done for the machine (its offset stored, to be committed by that same transaction) as soon as they
    /// have; the status line follows the commit.
    ///
    /// Nothing is retried here: an aborted transaction's answers go in the next one by themselves
    /// (``KafkaTransactions``). An answer is dropped only when its partition is no longer this worker's, or
    /// the worker stops: the partition's next owner then answers the request, and the aborted transaction
    /// keeps this answer from readers.
    @inline(never)
    func deliverInTransaction(_ outgoing: OutgoingAnswer, _ transactions: KafkaTransactions) async {
        let position = outgoing.position
        let messages = publisher.messages(outgoing.message, source: outgoing.source)
        var joined = false
        // Where the partition's next owner could start now: committed with this answer if nothing before it is.
        let resumeOffset = state.withLock { $0.offsets[position.partition]?.resumeOffset }
        let publication = await transactions.publish(
            messages, partition: position.partition, offset: position.offset, resumeOffset: resumeOffset,
            fallback: fallback(outgoing)
        ) {
            joined = true
            apply(transition { $0.queued(position) })
            apply(transition { $0.delivered(position) })
        }
        switch publication {
        case .committed:
            outcomes.delivered(outgoing.message, source: outgoing.source)
        case .committedFallback(let failure):
            if case .result(let result) = outgoing.message {
                var fields = outgoing.message.logIdentifiers
                fields["error"] = .string(failure.message)
                logger.error("the cluster refused a result as too large; answering failed", metadata: fields)
                let error = ContractError(.resultTooLarge, "the result was refused by the Kafka cluster as too large: \(failure.message)")
                outgoing.message = .error(publisher.undeliverable(result, error, source: outgoing.source))
            }
            outcomes.delivered(outgoing.message, source: outgoing.source)
        case .dropped(let failure):
            metrics.deliveryFailed(failure.code)
            if !joined { apply(transition { $0.queued(position) }) }
            guard failure.code == .partition else {
                // The publisher stopped (shutdown, or a fatal error): the failure line, as for any answer given up.
                _ = retry(position, retryable: false, outgoing.message, source: outgoing.source, failure: failure)
                return
            }
            // Its partition went to another member, which answers the request: the designed way, not an error
            // (the revocation's or the transaction's own line says how many).
            if case .giveUp(let action) = state.withLock({ $0.deliveryFailed(position, retryable: false) }) {
                outcomes.handedToNextOwner(source: outgoing.source, failure: failure)
                apply(action)
            }
            var fields = outgoing.message.logIdentifiers
            fields["partition"] = .string("\(position.partition)")
            logger.debug("answer dropped: its partition is another member's now", metadata: fields)
        }
    }

    /// The messages sent instead if the cluster refuses the answer's as too large: a `failed` outcome
    /// (`result_too_large`) for a result; an error outcome has nothing smaller.
    private func fallback(_ outgoing: OutgoingAnswer) -> @Sendable () -> [KafkaProducerMessage] {
        let (publisher, message, source) = (self.publisher, outgoing.message, outgoing.source)
        return {
            guard case .result(let result) = message else { return publisher.messages(message, source: source) }
            let error = ContractError(.resultTooLarge, "the result was refused by the Kafka cluster as too large")
            return publisher.messages(.error(publisher.undeliverable(result, error, source: source)), source: source)
        }
    }
}
