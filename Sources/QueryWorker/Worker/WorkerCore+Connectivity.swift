import FeatureQuerySupport
import Kafka
import Logging
import Synchronization

/// What the worker's Kafka clients say about the cluster, in the summary line (`kafka`), the periodic
/// `waiting for the Kafka cluster` warning, and (read by the operations server) readiness.
package enum WorkerKafkaState: String, Sendable {
    /// The consumer has joined its group and no client reports every broker down.
    case up
    /// The brokers answer (or nothing says otherwise) but the consumer has not joined its group yet.
    case joining
    /// A client reports every broker down.
    case down
}

extension WorkerCore {
    func kafkaState() -> WorkerKafkaState {
        if !consumer.connectivity.isConnected { return .down }
        if !publisher.producer.connectivity.isConnected { return .down }
        return consumer.hasJoinedGroup ? .up : .joining
    }

    /// Warns every ``kafkaWaitWarningInterval`` (read once, when the loop starts) while the cluster is
    /// unreachable or the group not joined (the worker waits, correctly, without a timeout: without this line
    /// its logs would go quiet), and says when the cluster is back. A loop of its own: the summary can be off.
    func connectivityLoop() async {
        let interval = kafkaWaitWarningInterval.withLock { $0 }
        // The `kafka_connected` gauge follows the state every second; the warning keeps its own interval.
        let tick = min(interval, .seconds(1))
        var lastUp = ContinuousClock.now
        var lastWarning = ContinuousClock.now
        var warned = false
        let probing = ProbeInProgress()
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            let state = kafkaState()
            metrics.recordKafkaConnected(state == .up)
            guard state != .up || warned else {
                lastUp = .now
                continue
            }
            guard state == .up || ContinuousClock.now - lastWarning >= interval else { continue }
            lastWarning = .now
            // In the background: a probe of an unreachable cluster takes its whole timeout, and the warnings
            // must keep their interval. One probe at a time.
            if probing.begin() {
                Task {
                    await self.probeDownClients(timeout: min(interval, .seconds(2)))
                    probing.end()
                }
            }
            let downFor = (ContinuousClock.now - lastUp).clampedMilliseconds
            if state == .up {
                if warned { logger.notice("Kafka cluster reachable again", metadata: ["downForMs": .int(downFor)]) }
                lastUp = .now
                warned = false
                continue
            }
            warned = true
            logger.warning("waiting for the Kafka cluster", metadata: waitingFields(state: state, downForMs: downFor))
        }
    }

    /// A client that saw every broker down learns of the recovery from its own traffic; an idle one (a
    /// producer with nothing to send) asks for the broker list instead.
    private func probeDownClients(timeout: Duration) async {
        if !consumer.connectivity.isConnected { await consumer.probeConnectivity(timeout: timeout) }
        if !publisher.producer.connectivity.isConnected { await publisher.producer.probeConnectivity(timeout: timeout) }
    }

    private func waitingFields(state: WorkerKafkaState, downForMs: Int64) -> Logger.Metadata {
        var fields: Logger.Metadata = [
            "kafka": .string(state.rawValue), "downForMs": .int(downForMs),
            "bootstrapServers": .string(settings.bootstrapServers.joined(separator: ",")), "groupId": .string(settings.groupID),
            "joinedGroup": .stringConvertible(consumer.hasJoinedGroup),
            "requestsInFlight": .int(self.state.withLock { $0.inFlight }),
            "undeliveredOutcomes": .int(publisher.producer.undeliveredCount),
        ]
        let errors = [consumer.connectivity.lastError, publisher.producer.connectivity.lastError].compactMap { $0 }
        if let last = errors.max(by: { $0.at < $1.at }) {
            fields["lastError.code"] = .string(last.code)
            fields["lastError.message"] = .string(last.message)
        }
        return fields
    }
}

/// Whether a connectivity probe is running (``WorkerCore/connectivityLoop()`` starts at most one at a time).
private final class ProbeInProgress: Sendable {
    private let running = Atomic<Bool>(false)

    /// Marks a probe started; false when one already runs.
    func begin() -> Bool { !running.exchange(true, ordering: .acquiringAndReleasing) }

    func end() { running.store(false, ordering: .releasing) }
}
