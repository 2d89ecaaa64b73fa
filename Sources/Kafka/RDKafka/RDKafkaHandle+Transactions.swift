internal import CRDKafka
import FeatureQuerySupport

/// What a transactional call's error asks the caller to do (librdkafka's transactional API contract).
enum KafkaTransactionStep: Sendable {
    case done
    /// Call the same function again (after a short pause).
    case retry(KafkaError)
    /// The transaction cannot commit: abort it, then run its work again in a new one.
    case abort(KafkaError)
    /// The producer is unusable (fenced by a newer instance with the same `transactional.id`, or another fatal
    /// error): stop.
    case fatal(KafkaError)
}

extension RDKafkaHandle {
    /// `rd_kafka_init_transactions`: fences older instances with the same `transactional.id` and aborts their
    /// open transaction; blocks up to `timeout`.
    func initTransactions(timeout: Duration) -> KafkaTransactionStep {
        Self.step(rd_kafka_init_transactions(pointer, Self.milliseconds(timeout)), "initialising transactions")
    }

    func beginTransaction() -> KafkaTransactionStep {
        Self.step(rd_kafka_begin_transaction(pointer), "beginning a transaction")
    }

    /// `consumer`'s group metadata now (group, generation, member): taken when a transaction is sealed, so its
    /// offsets are committed under the generation in which their answers were made; nil before the consumer
    /// joined its group.
    func groupMetadata(of consumer: RDKafkaHandle) -> KafkaGroupMetadata? {
        rd_kafka_consumer_group_metadata(consumer.pointer).map(KafkaGroupMetadata.init)
    }

    /// `rd_kafka_send_offsets_to_transaction` with the group metadata taken at the seal (KIP-447): once the
    /// group has moved to another generation (this member's partitions lost or given away), the coordinator
    /// refuses the offsets and the transaction must abort, instead of committing answers that the partitions'
    /// next owner, or this member after rejoining, reads and answers again. `answered`: each offset's commit
    /// metadata (``AnsweredOffsets``).
    func sendOffsetsToTransaction(
        _ offsets: [KafkaTopicPartition: Int64], answered: [KafkaTopicPartition: String] = [:], metadata: KafkaGroupMetadata?,
        timeout: Duration
    ) -> KafkaTransactionStep {
        guard !offsets.isEmpty else { return .done }
        guard let metadata else {
            return .abort(KafkaError(code: .offset, message: "the consumer has no group metadata (not a group member yet)", isRetryable: true))
        }
        let list = offsets.map { ($0.key, Optional($0.value)) }
        return RDKafkaTopicPartitionList.withList(list, metadata: answered) { list in
            Self.step(
                rd_kafka_send_offsets_to_transaction(pointer, list, metadata.pointer, Self.milliseconds(timeout)),
                "sending offsets to the transaction")
        }
    }

    /// `rd_kafka_commit_transaction`: flushes the transaction's messages and commits; blocks up to `timeout`.
    func commitTransaction(timeout: Duration) -> KafkaTransactionStep {
        Self.step(rd_kafka_commit_transaction(pointer, Self.milliseconds(timeout)), "committing a transaction")
    }

    /// `rd_kafka_abort_transaction`: purges the transaction's queued messages and aborts it.
    func abortTransaction(timeout: Duration) -> KafkaTransactionStep {
        Self.step(rd_kafka_abort_transaction(pointer, Self.milliseconds(timeout)), "aborting a transaction")
    }

    /// Reads and frees a transactional call's error object.
    private static func step(_ error: OpaquePointer?, _ context: String) -> KafkaTransactionStep {
        guard let error else { return .done }
        defer { rd_kafka_error_destroy(error) }
        let text = rd_kafka_error_string(error).map { String(cString: $0) } ?? "unknown error"
        var kafkaError = KafkaError.rdKafka(rd_kafka_error_code(error), context: context, defaultCode: .transaction)
        kafkaError.message = "\(context): \(text)"
        kafkaError.isFatal = rd_kafka_error_is_fatal(error) != 0
        kafkaError.isRetryable = rd_kafka_error_is_retriable(error) != 0
        if kafkaError.isFatal {
            kafkaError.code = .fatal
            return .fatal(kafkaError)
        }
        if rd_kafka_error_txn_requires_abort(error) != 0 { return .abort(kafkaError) }
        if kafkaError.isRetryable { return .retry(kafkaError) }
        // Neither retriable nor abortable (a state error, such as a timed-out call still in progress): the
        // safe way on is to abort and run the work again.
        return .abort(kafkaError)
    }

    private static func milliseconds(_ duration: Duration) -> Int32 { Int32(clamping: duration.clampedMilliseconds) }
}

/// A consumer's group metadata (`rd_kafka_consumer_group_metadata_t`), owned: freed with the value. Not
/// `Sendable`: it lives on the transaction thread, for one transaction.
final class KafkaGroupMetadata {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { rd_kafka_consumer_group_metadata_destroy(pointer) }
}
