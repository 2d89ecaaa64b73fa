import Kafka
import Logging
import Testing

@testable import QueryWorker
import CurlHTTP
import Synchronization
@testable import RequestContract

/// The drain and revocation paths wait on the request life cycle (``WorkerCore/waitUntil(_:deadline:)``). They
/// used to poll with `try? await Task.sleep`, which returns at once in a cancelled task: a cancelled worker
/// spun a cooperative thread until the shutdown timeout passed. Nothing here reaches a broker.
@Suite("Worker: waiting for the request life cycle")
struct WorkerWaitTests {
    private static let partition = KafkaTopicPartition(topic: "requests", partition: 0)
    private static let position = MessagePosition(partition, offset: 0)

    /// A worker that is never run, holding one rejected message whose outcome is not delivered: `.idle` is false.
    private static func busyWorker() throws -> WorkerAssembly {
        var settings = WorkerSettings()
        settings.bootstrapServers = ["127.0.0.1:9"]
        settings.allowedHosts = ["127.0.0.1"]
        var logger = Logger(label: "worker-wait")
        logger.logLevel = .critical
        let assembly = try WorkerAssembly(settings: settings, logger: logger)
        let arrival = WorkerCore.StateMachine.Arrival.rejected(
            RejectedRequest(code: .invalidJSON, message: "not JSON"),
            MessageSource(topic: partition.topic, partition: 0, offset: 0, key: nil), receivedAt: 0)
        assembly.worker.core.state.withLock { machine in
            machine.assign([partition])
            _ = machine.receive(arrival, at: position, nowMs: 0)
        }
        return assembly
    }

    /// Fails on the old polling loop: there the wait spins for the hour and the suite's timeout ends the run.
    @Test func aCancelledWaitReturnsAtOnceInsteadOfSpinningUntilItsDeadline() async throws {
        let assembly = try Self.busyWorker()
        let core = assembly.worker.core
        let waiting = Task { await core.waitUntil(.idle, deadline: .now + .seconds(3600)) }
        waiting.cancel()
        await waiting.value
        #expect(!core.state.withLock { $0.holds(.idle) }, "it returned without the condition holding")
        await assembly.httpClient.shutdown()
    }

    /// The event that makes the condition true resumes the wait: no polling, and no deadline needed.
    @Test func theDeliveryThatEmptiesTheWorkerEndsTheWait() async throws {
        let assembly = try Self.busyWorker()
        let core = assembly.worker.core
        let waiting = Task { await core.waitUntil(.idle, deadline: .now + .seconds(3600)) }
        core.apply(core.transition { $0.queued(Self.position) })
        core.apply(core.transition { $0.delivered(Self.position) })
        await waiting.value
        #expect(core.state.withLock { $0.holds(.idle) })
        await assembly.httpClient.shutdown()
    }
}
