import Logging
import Synchronization
import Kafka

extension WorkerCore {
    /// Graceful shutdown: no more messages are read; in-flight requests get `shutdownTimeout` to finish,
    /// the rest are cancelled with `cancelled` outcomes (`shutdown`); returns once every outcome is delivered
    /// (or given up on) and its offset stored, or after ``ShutdownBudget/answers``: the drain keeps within
    /// the worker's part of the shutdown budget by itself (``ShutdownDeadline`` enforces it from outside too).
    func drain(in group: inout DiscardingTaskGroup) async {
        logger.info("draining", metadata: ["inFlight": .int(state.withLock { $0.inFlight })])
        await waitUntil(.noRuns, deadline: .now + settings.timeouts.shutdown)
        perform(transition { $0.shutDown() }, in: &group)
        await waitUntil(.idle, deadline: .now + ShutdownBudget.answers)
        // The last answers' transaction, before the consumer leaves the group (its generation commits them).
        if let transactions, !(await transactions.flush(timeout: ShutdownBudget.answers)) {
            logger.warning("the last answers' transaction did not commit; their requests are left to the next owner")
        }
    }

    /// Waits until `condition` holds or `deadline` passes (shutdown and rebalance paths). Event-driven: the
    /// machine's action resumes the wait when an event makes the condition true; a cancelled task returns at
    /// once (its sleep ends the wait) instead of polling.
    func waitUntil(_ condition: StateMachine.Condition, deadline: ContinuousClock.Instant) async {
        let id = state.withLock { $0.makeWaiter() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    if !self.state.withLock({ $0.wait(id, for: condition, continuation) }) { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                self.state.withLock { $0.stopWaiting(id) }?.resume()
            }
            await group.next()
            group.cancelAll()
        }
    }
}
