import DequeModule

extension KafkaConsumerCore {
    /// The consumer's shared state: the read-ahead batches, the waiting reader, the assignment and which
    /// partitions the caller paused. A value type kept under a lock; each transition returns what to do, and the
    /// caller does it after releasing the lock. `Waiter` is generic so that tests can drive it without
    /// continuations.
    ///
    /// Flow control does not pause partitions in librdkafka (that discards its prefetched data and stalls the
    /// fetcher for up to a second): when the read-ahead is full, the poll thread stops polling until the reader
    /// has taken half of it, and librdkafka's own prefetch limits bound memory meanwhile. While every assigned
    /// partition is paused (by the caller), it polls anyway, for callbacks only (``everyAssignedPartitionPaused``).
    struct StateMachine<Waiter> {
        enum Phase { case running, finished(KafkaError?) }

        /// librdkafka calls to make: partitions whose paused state changed.
        struct PauseChanges: Equatable {
            var pause: [KafkaTopicPartition] = []
            var resume: [KafkaTopicPartition] = []
            var isEmpty: Bool { pause.isEmpty && resume.isEmpty }
        }

        enum NextAction {
            /// Hand this batch to the reader; wake the poll thread if it waits for room.
            case deliver([KafkaConsumerMessage], wakePoller: Bool)
            case suspend
            case finish(KafkaError?)
        }

        struct ReceiveAction {
            var resume: (Waiter, [KafkaConsumerMessage])?
            /// The read-ahead is full: the poll thread waits for room before polling again.
            var pollerMustWait = false
        }

        private(set) var phase = Phase.running
        private(set) var batches = Deque<[KafkaConsumerMessage]>()
        private(set) var bufferedCount = 0
        private var waiter: Waiter?
        /// The reader was told to stop (graceful shutdown) while it was not waiting: its next wait ends at once.
        private var readerInterrupted = false
        let capacity: Int
        let lowWatermark: Int
        private(set) var pollerWaiting = false

        private(set) var assigned: Set<KafkaTopicPartition> = []
        private(set) var userPaused: Set<KafkaTopicPartition> = []
        private(set) var userPausedAll = false

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            self.lowWatermark = max(0, capacity / 2)
        }

        func isPaused(_ partition: KafkaTopicPartition) -> Bool {
            userPausedAll || userPaused.contains(partition)
        }

        /// Whether the poll thread may poll again.
        var hasRoom: Bool {
            if case .finished = phase { return true }
            return bufferedCount < capacity
        }

        /// Whether every assigned partition is paused in librdkafka (true with none assigned): polling then
        /// returns no messages, only callbacks.
        var everyAssignedPartitionPaused: Bool { assigned.allSatisfy(isPaused) }

        // MARK: Poll thread

        /// Messages read by the poll thread.
        mutating func received(_ messages: [KafkaConsumerMessage]) -> ReceiveAction {
            guard case .running = phase, !messages.isEmpty else { return ReceiveAction() }
            if let waiter = self.waiter {
                self.waiter = nil
                return ReceiveAction(resume: (waiter, messages))
            }
            batches.append(messages)
            bufferedCount += messages.count
            if bufferedCount >= capacity {
                pollerWaiting = true
                return ReceiveAction(pollerMustWait: true)
            }
            return ReceiveAction()
        }

        /// Partitions given to this member. Returns those that must start paused.
        mutating func assigned(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition] {
            assigned.formUnion(partitions)
            return partitions.filter(isPaused).sorted(by: Self.order)
        }

        /// Partitions taken away: their buffered messages are dropped (another member will read them from the
        /// committed offset) and their pause marks are forgotten. Returns whether to wake the poll thread.
        mutating func revoked(_ partitions: [KafkaTopicPartition]) -> Bool {
            let revokedSet = Set(partitions)
            assigned.subtract(revokedSet)
            userPaused.subtract(revokedSet)
            var kept = Deque<[KafkaConsumerMessage]>()
            bufferedCount = 0
            for batch in batches {
                let remaining = batch.filter { !revokedSet.contains($0.topicPartition) }
                if !remaining.isEmpty {
                    kept.append(remaining)
                    bufferedCount += remaining.count
                }
            }
            batches = kept
            return wakePollerIfDrained()
        }

        /// The consumer stopped, with an error if it failed. The waiting reader is returned to be resumed.
        mutating func finish(_ error: KafkaError?) -> Waiter? {
            guard case .running = phase else { return nil }
            phase = .finished(error)
            batches.removeAll()
            bufferedCount = 0
            defer { waiter = nil }
            return waiter
        }

        // MARK: Reader

        /// The reader wants more messages: it gets a whole batch, moved, not copied.
        mutating func next() -> NextAction {
            if let batch = batches.popFirst() {
                bufferedCount -= batch.count
                return .deliver(batch, wakePoller: wakePollerIfDrained())
            }
            if case .finished(let error) = phase { return .finish(error) }
            return .suspend
        }

        private mutating func wakePollerIfDrained() -> Bool {
            guard pollerWaiting, bufferedCount <= lowWatermark else { return false }
            pollerWaiting = false
            return true
        }

        /// The reader suspends until messages arrive. Returns `false` when it must not wait (finished meanwhile).
        mutating func suspend(_ waiter: Waiter) -> Bool {
            guard case .running = phase, batches.isEmpty else { return false }
            if readerInterrupted {
                readerInterrupted = false
                return false
            }
            precondition(self.waiter == nil, "KafkaConsumer.messages supports one reader at a time")
            self.waiter = waiter
            return true
        }

        /// The reader gave up waiting (its task was cancelled).
        mutating func cancelWaiter() -> Waiter? {
            defer { waiter = nil }
            return waiter
        }

        /// The reader is to stop waiting (graceful shutdown): the waiting reader is returned, to be resumed with
        /// the end of the messages; a reader not waiting yet ends its next wait at once instead.
        mutating func interruptReader() -> Waiter? {
            guard let waiter else {
                readerInterrupted = true
                return nil
            }
            self.waiter = nil
            return waiter
        }

        /// Whether a message taken before a revocation still belongs to this member.
        func stillAssigned(_ message: KafkaConsumerMessage) -> Bool {
            assigned.contains(message.topicPartition)
        }

        // MARK: Caller's pause and resume

        private var effectivelyPaused: Set<KafkaTopicPartition> { assigned.filter(isPaused) }

        /// Applies a change and reports which assigned partitions must now be paused or resumed in librdkafka.
        private mutating func transition(_ change: (inout Self) -> Void) -> PauseChanges {
            let before = effectivelyPaused
            change(&self)
            let after = effectivelyPaused
            return PauseChanges(
                pause: after.subtracting(before).sorted(by: Self.order),
                resume: before.subtracting(after).sorted(by: Self.order)
            )
        }

        private static func order(_ a: KafkaTopicPartition, _ b: KafkaTopicPartition) -> Bool {
            (a.topic, a.partition) < (b.topic, b.partition)
        }

        mutating func pause(_ partitions: [KafkaTopicPartition]) -> PauseChanges {
            transition { $0.userPaused.formUnion(partitions) }
        }

        mutating func resume(_ partitions: [KafkaTopicPartition]) -> PauseChanges {
            transition { $0.userPaused.subtract(partitions) }
        }

        mutating func pauseAll() -> PauseChanges {
            transition { $0.userPausedAll = true }
        }

        mutating func resumeAll() -> PauseChanges {
            transition {
                $0.userPausedAll = false
                $0.userPaused.removeAll()
            }
        }
    }
}
