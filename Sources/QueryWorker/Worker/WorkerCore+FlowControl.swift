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
    /// and push in-flight past `maxInFlight`. Pauses the partitions in librdkafka too once the gate has been
    /// closed for ``partitionPauseDelay``. Returns when the gate opens (the machine's action resumes the loop),
    /// on graceful shutdown or on cancellation (the loop then ends).
    func waitWhilePaused() async {
        guard state.withLock({ if case .held = $0.intake { true } else { false } }) else { return }
        await withTaskCancellationOrGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.waitForGate() }
                group.addTask {
                    guard (try? await Task.sleep(for: Self.partitionPauseDelay)) != nil else { return }
                    self.pausePartitionsIfStillHeld()
                }
                await group.next()
                group.cancelAll()
            }
        } onCancelOrGracefulShutdown: {
            self.stopIntake()
        }
    }

    /// The message loop is ending: it never waits for the gate again (see ``StateMachine/stopIntake()``).
    func stopIntake() {
        state.withLock { $0.stopIntake() }?.resume()
    }

    private func waitForGate() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !state.withLock({ $0.holdLoop(continuation) }) { continuation.resume() }
        }
    }

    private func pausePartitionsIfStillHeld() {
        guard state.withLock({ $0.pausePartitionsIfStillHeld() }) else { return }
        logger.notice("in-flight bound reached; pausing partitions", metadata: ["maxInFlight": .int(settings.limits.maxInFlight)])
        consumer.pauseAll()
        metrics.intakePaused(true)
    }
}
