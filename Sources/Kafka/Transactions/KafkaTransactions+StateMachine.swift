extension KafkaTransactions {
    /// What a transactional publisher (``KafkaTransactions``) holds and decides, without I/O: the outcomes waiting
    /// for the next transaction, the offsets that transaction commits, the transaction being run, and who waits.
    ///
    /// The rule that makes outcomes and offsets one unit: an offset is stored only after the outcomes it
    /// completes were appended (``beginAppend(_:)`` … ``endAppend()``), and a transaction is sealed only while no
    /// append is in progress. So every offset a sealed transaction commits belongs to an outcome that is in it or
    /// in an earlier committed one. An aborted transaction's outcomes go back to the front of the queue and are
    /// sealed again with the offsets stored by then; those of partitions this member no longer owns are dropped,
    /// and their requests are the next owner's.
    ///
    /// Answers past the first unanswered request of a partition are committed before their offsets can be: each
    /// transaction's offset commit names them in its metadata (``AnsweredOffsets``), so the partition's next
    /// owner skips them instead of answering them again.
    package struct StateMachine: Sendable {
        /// One outcome's messages, from one request partition.
        package struct Entry: Sendable {
            package let id: UInt64
            package var messages: [KafkaProducerMessage]
            /// Where the request was read: decides whether the entry is still this member's to publish.
            package let partition: KafkaTopicPartition
            /// The request's offset: named in the commit's metadata while it is past the committed offset.
            package let offset: Int64?
            /// Where the partition's next owner could start when the entry was appended (never past a request
            /// not answered, never below what was committed): the offset committed with it when none was
            /// stored yet.
            package let resumeOffset: Int64?

            package init(
                id: UInt64, messages: [KafkaProducerMessage], partition: KafkaTopicPartition, offset: Int64? = nil,
                resumeOffset: Int64? = nil
            ) {
                self.id = id
                self.messages = messages
                self.partition = partition
                self.offset = offset
                self.resumeOffset = resumeOffset
            }
        }

        /// What a partition's previous owner committed, read when it is assigned: the offset and the answers
        /// past it (``AnsweredOffsets``).
        package struct Inherited: Sendable, Hashable {
            package var committed: Int64
            package var answered: Set<Int64>
            package init(committed: Int64, answered: Set<Int64>) {
                self.committed = committed
                self.answered = answered
            }
        }

        /// What one transaction publishes and commits.
        package struct Sealed: Sendable {
            /// The seal's number: flushes wait for a number.
            package let number: UInt64
            package var entries: [Entry]
            /// The next offset to read, per partition, that the transaction commits for the group.
            package var offsets: [KafkaTopicPartition: Int64]
            /// The metadata of each offset: the answers past it (``AnsweredOffsets``).
            package var metadata: [KafkaTopicPartition: String] = [:]
            /// Answered offsets past the commit that did not fit in the metadata.
            package var leftOut = 0
        }

        /// What ``seal()`` found.
        package enum SealResult: Equatable, Sendable {
            /// Appends are in progress: try again in a moment (they take microseconds).
            case appendsInProgress
            /// Nothing to publish or commit.
            case nothing
            /// A transaction to run.
            case transaction(number: UInt64)
        }

        private(set) var pending: [Entry] = []
        private(set) var appending = 0
        /// The offsets stored for each owned partition, the latest (the done prefix only grows).
        private(set) var stored: [KafkaTopicPartition: Int64] = [:]
        /// The offsets committed by transactions (or by the partition's previous owner).
        private(set) var committed: [KafkaTopicPartition: Int64] = [:]
        /// Per partition, the requests past its committed offset whose answers are committed too.
        private(set) var answeredPastCommit: [KafkaTopicPartition: Set<Int64>] = [:]
        /// Per partition, the highest ``Entry/resumeOffset`` appended.
        private(set) var resumeOffsets: [KafkaTopicPartition: Int64] = [:]
        /// The partitions this member owns; others' entries and offsets are dropped.
        private(set) var assigned: Set<KafkaTopicPartition> = []
        /// Partitions being revoked: when the transaction fails, their entries are dropped instead of retried.
        private(set) var revoking: Set<KafkaTopicPartition> = []
        package private(set) var sealed: Sealed?
        /// Partitions of the sealed transaction (its entries' or offsets') dropped while it ran: lost, or revoked
        /// without its commit. It must not commit then (the partitions' next owner, maybe this member after it
        /// rejoined, reads from the last committed offsets and answers those requests again); when it aborts,
        /// their entries are dropped even if the partitions came back.
        private(set) var partitionsLeftSealed: Set<KafkaTopicPartition> = []
        private(set) var sealCount: UInt64 = 0
        /// Set once stopping: appends are refused.
        private(set) var stopped = false

        package init() {}

        // MARK: Appends and offsets

        /// An outcome joins the next transaction. False once stopped (the caller fails the outcome).
        package mutating func beginAppend(_ entry: Entry) -> Bool {
            guard !stopped, assigned.contains(entry.partition) else { return false }
            if let resume = entry.resumeOffset {
                resumeOffsets[entry.partition] = max(resume, resumeOffsets[entry.partition] ?? resume)
            }
            pending.append(entry)
            appending += 1
            return true
        }

        /// The append's offsets are stored: a seal may go ahead.
        package mutating func endAppend() {
            appending -= 1
        }

        /// Offsets became committable (the next offset to read per partition). Lower ones than stored are kept out:
        /// a commit never goes back.
        package mutating func store(_ offsets: [KafkaTopicPartition: Int64]) {
            for (partition, offset) in offsets where assigned.contains(partition) {
                stored[partition] = max(offset, stored[partition] ?? offset)
            }
        }

        /// Partitions given to this member, with what their previous owner committed where it was read.
        package mutating func assign(_ partitions: [KafkaTopicPartition], inherited: [KafkaTopicPartition: Inherited] = [:]) {
            assigned.formUnion(partitions)
            revoking.subtract(partitions)
            for (partition, previous) in inherited where partitions.contains(partition) && previous.committed >= 0 {
                let floor = max(previous.committed, committed[partition] ?? previous.committed)
                committed[partition] = floor
                answeredPastCommit[partition] = previous.answered.filter { $0 >= floor }
            }
        }

        /// These partitions are being revoked: if the transaction that should commit their answers fails, the
        /// answers are dropped, not retried (the group has moved on; the next owner answers).
        package mutating func beginRevoking(_ partitions: [KafkaTopicPartition]) {
            revoking.formUnion(partitions)
        }

        /// These partitions are no longer owned: their pending entries and offsets go. Returns the dropped
        /// entries' ids (their waiters are told). A sealed transaction keeps its entries until it ends.
        package mutating func drop(_ partitions: [KafkaTopicPartition]) -> [UInt64] {
            let gone = Set(partitions)
            assigned.subtract(gone)
            revoking.subtract(gone)
            for partition in gone {
                stored[partition] = nil
                committed[partition] = nil
                answeredPastCommit[partition] = nil
                resumeOffsets[partition] = nil
            }
            let dropped = pending.filter { gone.contains($0.partition) }.map(\.id)
            pending.removeAll { gone.contains($0.partition) }
            if let sealed {
                let inSealed = Set(sealed.entries.map(\.partition)).union(sealed.offsets.keys)
                partitionsLeftSealed.formUnion(gone.intersection(inSealed))
            }
            return dropped
        }

        /// The partitions of the sealed transaction that left this member since the seal; nil without one. Not
        /// empty: the transaction must abort.
        package var sealedPartitionsLeft: Set<KafkaTopicPartition>? { sealed == nil ? nil : partitionsLeftSealed }

        // MARK: Transactions

        /// Seals what is pending into the next transaction: its entries, the offsets stored beyond those
        /// committed, and for every partition with answers past its offset, the offset again with those answers
        /// named in its metadata. Nothing while another transaction runs or appends are in progress.
        package mutating func seal() -> SealResult {
            guard sealed == nil else { return .nothing }
            guard appending == 0 else { return .appendsInProgress }
            var appended: [KafkaTopicPartition: [Int64]] = [:]
            for entry in pending { if let offset = entry.offset { appended[entry.partition, default: []].append(offset) } }
            var transaction = Sealed(number: sealCount + 1, entries: pending, offsets: [:])
            for partition in Set(stored.keys).union(appended.keys) where assigned.contains(partition) {
                let floor = committed[partition] ?? -1
                let offset = max(stored[partition] ?? -1, resumeOffsets[partition] ?? -1, floor)
                let answersPast = appended[partition, default: []].contains { $0 >= offset }
                guard offset >= 0, offset > floor || answersPast else { continue }
                transaction.offsets[partition] = offset
                let answered = answeredPastCommit[partition, default: []].union(appended[partition, default: []])
                let (text, leftOut) = AnsweredOffsets.metadata(committing: offset, answered: answered)
                if !text.isEmpty { transaction.metadata[partition] = text }
                transaction.leftOut += leftOut
            }
            guard !pending.isEmpty || !transaction.offsets.isEmpty else { return .nothing }
            sealCount += 1
            sealed = transaction
            pending = []
            return .transaction(number: sealCount)
        }

        /// The sealed transaction committed: returns its entries' ids (their outcomes are published).
        package mutating func committedSealed() -> [UInt64] {
            guard let done = sealed else { return [] }
            sealed = nil
            for (partition, offset) in done.offsets where assigned.contains(partition) && !partitionsLeftSealed.contains(partition) {
                let floor = max(offset, committed[partition] ?? offset)
                committed[partition] = floor
                let answered = done.entries.compactMap { $0.partition == partition ? $0.offset : nil }
                answeredPastCommit[partition] = answeredPastCommit[partition, default: []].union(answered).filter { $0 >= floor }
            }
            partitionsLeftSealed = []
            return done.entries.map(\.id)
        }

        /// The sealed transaction was aborted: its entries go back to the front of the queue, but for those of
        /// partitions no longer owned, being revoked, or lost since the seal (even if assigned again), whose ids are
        /// returned (their requests are the next owner's, or read again by this member). Offsets are sealed afresh
        /// next time.
        package mutating func abortedSealed() -> [UInt64] {
            guard let done = sealed else { return [] }
            sealed = nil
            let left = partitionsLeftSealed
            partitionsLeftSealed = []
            let (owned, leaving) = (assigned, revoking)
            let ours = { (entry: Entry) in
                owned.contains(entry.partition) && !leaving.contains(entry.partition) && !left.contains(entry.partition)
            }
            let kept = done.entries.filter(ours)
            let dropped = done.entries.filter { !ours($0) }
            let droppedPending = pending.filter { revoking.contains($0.partition) }
            for partition in revoking {
                stored[partition] = nil
            }
            // Their answers can no longer be committed by this member: later ones are refused too.
            assigned.subtract(revoking)
            pending = kept + pending.filter { !revoking.contains($0.partition) }
            return (dropped + droppedPending).map(\.id)
        }

        /// Replaces an entry's messages (a result refused as too large, answered with a smaller error instead).
        package mutating func replaceSealedMessages(of id: UInt64, with messages: [KafkaProducerMessage]) {
            guard let index = sealed?.entries.firstIndex(where: { $0.id == id }) else { return }
            sealed?.entries[index].messages = messages
        }

        /// Replaces a waiting entry's messages (one the cluster refused as too large, before it is sent again).
        package mutating func replacePendingMessages(of id: UInt64, with messages: [KafkaProducerMessage]) {
            guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
            pending[index].messages = messages
        }

        /// Stopping: no more appends; returns the ids of everything not committed (pending and sealed).
        package mutating func stop() -> [UInt64] {
            stopped = true
            let ids = pending.map(\.id) + (sealed?.entries.map(\.id) ?? [])
            pending = []
            sealed = nil
            partitionsLeftSealed = []
            return ids
        }

        /// The number of the last seal: a flush waits for a later one to end.
        package var lastSeal: UInt64 { sealCount }
        package var hasPending: Bool { !pending.isEmpty || appending > 0 }
        /// Offsets stored beyond what transactions committed.
        package var hasUncommittedOffsets: Bool {
            stored.contains { $0.value > (committed[$0.key] ?? -1) }
        }
    }
}
