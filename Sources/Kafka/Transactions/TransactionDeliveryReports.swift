/// The delivery reports of one transaction's messages, by entry: what the cluster refused as too large, so
/// that an aborted transaction's retry carries those outcomes' fallbacks instead of failing again.
final class TransactionDeliveryReports: Sendable {
    private let batch: KafkaDeliveryBatch
    /// Each entry's first slot.
    private let firstSlot: [UInt64: Int]
    private let owners: [UInt64]

    init(_ entries: [KafkaTransactions.StateMachine.Entry]) {
        var firstSlot: [UInt64: Int] = [:]
        var owners: [UInt64] = []
        for entry in entries {
            firstSlot[entry.id] = owners.count
            owners += Array(repeating: entry.id, count: entry.messages.count)
        }
        self.firstSlot = firstSlot
        self.owners = owners
        batch = KafkaDeliveryBatch(count: owners.count)
    }

    /// The opaque for message `index` of entry `id`.
    func opaque(_ id: UInt64, _ index: Int) -> UnsafeMutableRawPointer? {
        firstSlot[id].map { batch.opaque($0 + index) }
    }

    /// Entry `id`'s messages from `index` on were not queued (replaced by its fallback).
    func notQueued(_ id: UInt64, from index: Int, _ error: KafkaError) {
        guard let first = firstSlot[id] else { return }
        for slot in (first + index)..<owners.count where owners[slot] == id { batch.complete(slot, .failed(error)) }
    }

    /// Nothing from message `index` of entry `id` on was queued (the transaction is aborted).
    func notQueued(after id: UInt64, _ index: Int, _ error: KafkaError) {
        guard let first = firstSlot[id] else { return }
        for slot in (first + index)..<owners.count { batch.complete(slot, .failed(error)) }
    }

    /// Once every report is in (the commit or abort has returned: they follow within a poll round), the
    /// entries with a message the cluster refused as too large. Reports still missing after a few seconds:
    /// the batch is kept alive for good (librdkafka still points at it) and nothing is known.
    func refusedAsTooLarge() -> [UInt64: KafkaError] {
        guard batch.waitSynchronously(timeout: .seconds(5)) else {
            _ = Unmanaged.passRetained(batch)
            return [:]
        }
        var refused: [UInt64: KafkaError] = [:]
        for slot in owners.indices {
            if let error = batch.failure(slot), error.code == .messageTooLarge { refused[owners[slot]] = error }
        }
        return refused
    }
}
