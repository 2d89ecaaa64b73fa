import Kafka
import Logging
import ServiceLifecycle

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
    /// closed for ``partitionPauseDelay``. Returns when the gate opens, on graceful shutdown or on
    /// cancellation (the loop then ends).
    func waitWhilePaused() async {
        guard state.withLock({ $0.gate.isPaused && !$0.loopStopping }) else { return }
        await withTaskCancellationOrGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.waitForGate() }
                group.addTask {
                    guard (try? await Task.sleep(for: Self.partitionPauseDelay)) != nil else { return }
                    self.pausePartitionsIfStillClosed()
                }
                await group.next()
                group.cancelAll()
            }
        } onCancelOrGracefulShutdown: {
            let waiter = self.state.withLock { state in
                state.loopStopping = true
                return state.resumeWaiter.take()
            }
            waiter?.resume()
        }
    }

    private func waitForGate() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state -> Bool in
                guard state.gate.isPaused, !state.loopStopping else { return false }
                state.resumeWaiter = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    private func pausePartitionsIfStillClosed() {
        let pause = state.withLock { state -> Bool in
            guard state.gate.isPaused, !state.partitionsPaused else { return false }
            state.partitionsPaused = true
            return true
        }
        guard pause, let consumer = consumer.withLock({ $0 }) else { return }
        logger.notice("in-flight bound reached; pausing partitions", metadata: ["maxInFlight": "\(settings.limits.maxInFlight)"])
        consumer.pauseAll()
    }

    /// Acts on a gate change: a closed gate holds the message loop (see ``waitWhilePaused()``); an opened one
    /// releases it and resumes the partitions if they were paused.
    func applyGate(_ action: InFlightGate.Action) {
        guard action == .resume else { return }
        let (waiter, resumePartitions) = state.withLock { state in
            defer { state.partitionsPaused = false }
            return (state.resumeWaiter.take(), state.partitionsPaused)
        }
        waiter?.resume()
        guard resumePartitions, let consumer = consumer.withLock({ $0 }) else { return }
        logger.notice("below the low mark; resuming partitions", metadata: ["lowMark": "\(settings.limits.lowMark)"])
        consumer.resumeAll()
    }
}
