import Kafka
import Logging
import ServiceLifecycle
import Synchronization

extension WorkerCore {
    /// How long the gate stays closed before the partitions are paused in librdkafka as well.
    ///
    /// The message loop stops taking messages the moment the gate closes, which bounds what is in flight
    /// exactly. Pausing partitions in librdkafka is for a gate that *stays* closed (a slow service): it makes
    /// librdkafka drop the data it has prefetched and fetch it again after the resume, a stall of up to a
    /// second, which at full speed (the gate closing and opening every few milliseconds) would starve the
    /// worker. Memory stays bounded meanwhile: the consumer's read-ahead buffer and librdkafka's prefetch
    /// (`queued.max.messages.kbytes`) are both bounded.
    static let partitionPauseDelay = Duration.milliseconds(250)

    /// Holds the message loop while the gate is closed: messages read ahead would otherwise still be taken in
    /// and push in-flight past `maxInFlight`. Returns when the gate opens (the machine's action resumes the
    /// loop), on graceful shutdown or on cancellation (the loop then ends). The partitions are paused in
    /// librdkafka by ``partitionPauseLoop()``, not by a timer here: at the bound the gate closes every few
    /// milliseconds, and a task group, two child tasks and a Dispatch timer per closing were 2–3 % of the
    /// worker's CPU.
    func waitWhilePaused() async {
        guard state.withLock({ if case .held = $0.intake { true } else { false } }) else { return }
        await withTaskCancellationOrGracefulShutdownHandler {
            await waitForGate()
        } onCancelOrGracefulShutdown: {
            self.stopIntake()
        }
    }

    /// Pauses the partitions in librdkafka when the message loop has been held for ``partitionPauseDelay``:
    /// one task for the worker's life, which sleeps once per hold it watches (at most one a delay, however
    /// often the gate closes). A hold is paused after at least the delay and at most twice it: a hold that
    /// began while the watch slept through an earlier one is watched from when that sleep ends. Ends when
    /// cancelled.
    func partitionPauseLoop() async {
        while let hold = await nextHold() {
            guard (try? await Task.sleep(for: Self.partitionPauseDelay)) != nil else { return }
            pausePartitionsIfStillHeld(hold)
        }
    }

    /// The number of the loop's next hold (its current one, if held now); nil once cancelled.
    private func nextHold() async -> UInt64? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
                switch state.withLock({ $0.watchHolds(continuation) }) {
                case .watch(let hold): continuation.resume(returning: hold)
                case .end: continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            state.withLock { $0.endHoldWatch() }?.resume(returning: nil)
        }
    }

    /// The message loop is ending: it never waits for the gate again (see ``StateMachine/stopIntake()``).
    func stopIntake() {
        state.withLock { $0.stopIntake() }?.resume()
    }

    private func waitForGate() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = state.withLock { $0.holdLoop(continuation) }
            if let watch = held.watch { watch.continuation.resume(returning: watch.hold) }
            if !held.waits { continuation.resume() }
        }
    }

    private func pausePartitionsIfStillHeld(_ hold: UInt64) {
        guard state.withLock({ $0.pausePartitionsIfStillHeld(hold) }) else { return }
        logger.notice("in-flight bound reached; pausing partitions", metadata: ["maxInFlight": .int(settings.limits.maxInFlight)])
        consumer.pauseAll()
        metrics.intakePaused(true)
    }
}
