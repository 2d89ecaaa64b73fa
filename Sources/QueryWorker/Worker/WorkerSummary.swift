import EngineExecution
import Kafka
import Logging
import Synchronization

/// Counts the summary line needs that the request machine does not keep: answers that were errors.
final class SummaryCounts: Sendable {
    private let errors = Atomic<Int>(0)

    /// An outcome was delivered. Counts toward `errorRate`: requests that got no result because something went
    /// wrong. Superseded and cancelled requests were asked to stop; they are not errors.
    func delivered(_ message: OutcomeMessage) {
        guard case .error(let error) = message else { return }
        switch error.status {
        case .failed, .rejected, .expired: errors.add(1, ordering: .relaxed)
        default: break
        }
    }

    var errorCount: Int { errors.load(ordering: .relaxed) }
}

extension WorkerCore {
    /// How often ``PartitionLagMonitor`` refreshes: the summary's interval, at most 15 s (the lag is also a
    /// metric and a status-page figure, which need it when the summary line is off).
    static func lagInterval(summaryInterval: Duration) -> Duration {
        summaryInterval > .zero ? min(summaryInterval, .seconds(15)) : .seconds(15)
    }
}

extension WorkerCore.StateMachine.RunStart {
    /// The run's ids for the engines' log lines (``RequestLogContext``): the request that started the run
    /// (requests that join it later are on their `shared` status lines, with the same `run`).
    var logIdentity: RequestLogContext.Identity {
        RequestLogContext.Identity(run: run.rawValue, requestId: request.requestId, taskId: request.taskId)
    }
}

extension WorkerCore.StateMachine {
    /// The time since the oldest running request arrived, in milliseconds; 0 with none running.
    func oldestAgeMs(nowMs: Int64) -> Int64 {
        var oldest: Int64?
        for case .running(let pending, _) in messages.values {
            oldest = min(oldest ?? pending.request.receivedAt, pending.request.receivedAt)
        }
        return oldest.map { max(0, nowMs - $0) } ?? 0
    }
}

extension Logger.MetadataValue {
    /// A number the JSON handler writes as a JSON number, not a string (`.stringConvertible` of an integer).
    static func int(_ value: some BinaryInteger & Sendable & CustomStringConvertible) -> Logger.MetadataValue { .stringConvertible(value) }

    /// A JSON number rounded to `places` decimals.
    static func rounded(_ value: Double, places: Int = 1) -> Logger.MetadataValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .stringConvertible((value * scale).rounded() / scale)
    }
}
