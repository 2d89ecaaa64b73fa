import DequeModule

/// The consumer's shared state: read-ahead buffer, the waiting reader, the assignment and which partitions
/// are paused and why. A value type kept under a lock; each transition returns what to do, and the caller
/// does it after releasing the lock. `Waiter` is generic so that tests can drive it without continuations.
struct KafkaConsumerStateMachine<Waiter> {
    enum Phase { case running, finished(KafkaError?) }

    /// librdkafka calls to make: partitions whose effective paused state changed.
    struct PauseChanges: Equatable {
        var pause: [KafkaTopicPartition] = []
        var resume: [KafkaTopicPartition] = []
        var isEmpty: Bool { pause.isEmpty && resume.isEmpty }
    }

    enum NextAction {
        case deliver([KafkaConsumerMessage], PauseChanges)
        case suspend
        case finish(KafkaError?)
    }

    struct ReceiveAction {
        var resume: (Waiter, [KafkaConsumerMessage])?
        var changes = PauseChanges()
    }

    private(set) var phase = Phase.running
    private(set) var buffer = Deque<KafkaConsumerMessage>()
    private var waiter: Waiter?
    let capacity: Int
    let lowWatermark: Int
    let batchSize: Int

    private(set) var assigned: Set<KafkaTopicPartition> = []
    private(set) var userPaused: Set<KafkaTopicPartition> = []
    private(set) var userPausedAll = false
    /// Set while the buffer is above capacity: flow control, invisible to the caller.
    private(set) var flowPaused = false
    /// Counts revocations, so a reader can tell that messages it holds may belong to revoked partitions.
    private(set) var revocations = 0

    init(capacity: Int, batchSize: Int = 256) {
        self.capacity = max(1, capacity)
        self.lowWatermark = max(0, capacity / 2)
        self.batchSize = max(1, batchSize)
    }

    func isPaused(_ partition: KafkaTopicPartition) -> Bool {
        flowPaused || userPausedAll || userPaused.contains(partition)
    }

    func isAssigned(_ partition: KafkaTopicPartition) -> Bool { assigned.contains(partition) }

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

    // MARK: Poll thread

    /// Messages read by the poll thread.
    mutating func received(_ messages: [KafkaConsumerMessage]) -> ReceiveAction {
        guard case .running = phase, !messages.isEmpty else { return ReceiveAction() }
        if let waiter = self.waiter {
            self.waiter = nil
            return ReceiveAction(resume: (waiter, messages))
        }
        buffer.append(contentsOf: messages)
        var action = ReceiveAction()
        if buffer.count >= capacity, !flowPaused {
            action.changes = transition { $0.flowPaused = true }
        }
        return action
    }

    /// Partitions given to this member. Returns those that must start paused.
    mutating func assigned(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition] {
        assigned.formUnion(partitions)
        return partitions.filter(isPaused).sorted(by: Self.order)
    }

    /// Partitions taken away: their buffered messages are dropped (another member will read them from the
    /// committed offset) and their pause marks are forgotten.
    mutating func revoked(_ partitions: [KafkaTopicPartition]) -> PauseChanges {
        let revokedSet = Set(partitions)
        revocations += 1
        assigned.subtract(revokedSet)
        userPaused.subtract(revokedSet)
        buffer.removeAll { revokedSet.contains($0.topicPartition) }
        if flowPaused, buffer.count <= lowWatermark {
            return transition { $0.flowPaused = false }
        }
        return PauseChanges()
    }

    /// The consumer stopped, with an error if it failed. The waiting reader is returned to be resumed.
    mutating func finish(_ error: KafkaError?) -> Waiter? {
        guard case .running = phase else { return nil }
        phase = .finished(error)
        buffer.removeAll()
        defer { waiter = nil }
        return waiter
    }

    // MARK: Reader

    /// The reader wants more messages.
    mutating func next() -> NextAction {
        if !buffer.isEmpty {
            let count = min(batchSize, buffer.count)
            let batch = Array(buffer.prefix(count))
            buffer.removeFirst(count)
            var changes = PauseChanges()
            if flowPaused, buffer.count <= lowWatermark {
                changes = transition { $0.flowPaused = false }
            }
            return .deliver(batch, changes)
        }
        if case .finished(let error) = phase { return .finish(error) }
        return .suspend
    }

    /// The reader suspends until messages arrive. Returns `false` when it must not wait (finished meanwhile).
    mutating func suspend(_ waiter: Waiter) -> Bool {
        guard case .running = phase, buffer.isEmpty else { return false }
        precondition(self.waiter == nil, "KafkaConsumer.messages supports one reader at a time")
        self.waiter = waiter
        return true
    }

    /// The reader gave up waiting (its task was cancelled).
    mutating func cancelWaiter() -> Waiter? {
        defer { waiter = nil }
        return waiter
    }

    /// Whether a message taken before a revocation still belongs to this member.
    func stillAssigned(_ message: KafkaConsumerMessage) -> Bool {
        assigned.contains(message.topicPartition)
    }

    // MARK: Caller's pause and resume

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
