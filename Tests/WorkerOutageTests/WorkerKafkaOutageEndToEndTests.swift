import ChildProcessFixture
import Foundation
import Testing
import WorkerTestSupport

/// Kafka going away under a running `query-worker run` process: the cluster is
/// `query-worker embedded-kafka --fault-commands` in a process of its own, so its brokers can go down while
/// this process spawns children.
///
/// Nothing here is timed: the outage lasts at least 10 seconds (and until the worker has said it is not
/// ready), and every wait is for a condition with a generous limit.
@Suite("Worker: Kafka outages", .serialized)
struct WorkerKafkaOutageEndToEndTests {
    /// Duplicates are allowed (at-least-once: outcomes published but not yet committed when the brokers went
    /// away are published again), within a bound loose enough never to flake. What was seen is printed.
    static let duplicateBound = 0.05

    @Test func everyBrokerAwayForTenSecondsLosesNothingAndTheWorkerWaitsNotReady() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await KafkaOutageRig(executable: executable, brokers: 3)
        #expect(await rig.waitForReadiness(true, timeout: .seconds(90)), "ready at start: \(rig.worker.log.suffix(3_000))")

        // 2,000 requests arriving over about 10 s, as a steady stream does; the brokers go away once a
        // third is answered, and what is sent meanwhile waits in the producer until they are back.
        let ids = (0..<2_000).map { "outage-\($0)" }
        let sender = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for start in stride(from: 0, to: ids.count, by: 20) {
                    group.addTask { try await rig.send(Array(ids[start..<start + 20])) }
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await group.waitForAll()
            }
        }
        #expect(await rig.waitForOutcomes(atLeast: 600, timeout: .seconds(120)), "answering before the outage")

        #expect(try await rig.cluster.command("down all") == "ok down all")
        let wentDown = ContinuousClock.now
        let notReady = await rig.waitForReadiness(false, timeout: .seconds(60))
        let seenNotReady = ContinuousClock.now
        #expect(notReady, "not ready while no broker is reachable: \(rig.worker.log.suffix(3_000))")
        #expect(rig.worker.isRunning, "the worker keeps running while Kafka is away")
        let outageEnd = wentDown + .seconds(10)
        if ContinuousClock.now < outageEnd { try await Task.sleep(until: outageEnd) }
        #expect(rig.worker.isRunning, "the worker keeps running while Kafka is away")
        let answeredDuringOutage = rig.outcomes.count
        #expect(try await rig.cluster.command("up all") == "ok up all")
        let cameBack = ContinuousClock.now

        #expect(await rig.waitForReadiness(true, timeout: .seconds(120)), "ready again: \(rig.worker.log.suffix(3_000))")
        let readyAgain = ContinuousClock.now
        try await sender.value
        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(180)), "every request answered after the outage")
        #expect(rig.worker.isRunning, "the worker never exited")
        #expect(rig.worker.log.contains("waiting for the Kafka cluster") || rig.worker.log.contains("all brokers down"))

        let termination = try await rig.stop()
        #expect(termination == .exited(0), "the worker stops cleanly on SIGTERM after the outage")
        #expect(rig.cluster.isRunning == false)

        let byRequest = Dictionary(grouping: rig.outcomes, by: { $0 })
        #expect(Set(byRequest.keys) == Set(ids), "nothing lost, nothing else answered")
        let duplicated = byRequest.values.filter { $0.count > 1 }.count
        #expect(Double(duplicated) <= Self.duplicateBound * Double(ids.count), "\(duplicated) duplicated requests")
        print("""
            Kafka outage: \(ids.count) requests, \(rig.outcomes.count) outcomes, \(duplicated) requests answered more than \
            once; \(answeredDuringOutage) answered before the brokers came back; not ready seen \
            \(seenNotReady - wentDown) after the brokers went down, ready again \(readyAgain - cameBack) after they came \
            back (not ready for at least \(readyAgain - seenNotReady))
            """)
    }

    @Test func partitionLeadersMovingMidRunLoseNothing() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await KafkaOutageRig(executable: executable, brokers: 2)
        #expect(await rig.waitForReadiness(true, timeout: .seconds(90)), "ready at start: \(rig.worker.log.suffix(3_000))")

        let ids = (0..<1_000).map { "leader-\($0)" }
        try await rig.send(Array(ids[..<500]))
        #expect(await rig.waitForOutcomes(atLeast: 200, timeout: .seconds(120)), "answering before the move")
        // Every partition of every topic to broker 2, then (with requests still coming) to broker 1: each
        // partition changes leader at least once, whichever broker led it first.
        async let second: Void = rig.send(Array(ids[500...]))
        #expect(rig.outcomes.count < ids.count, "the leaders move mid-run")
        for broker in [2, 1] {
            for (topic, partitions) in [
                (KafkaOutageRig.requestsTopic, KafkaOutageRig.requestPartitions), (KafkaOutageRig.resultsTopic, 3),
                (KafkaOutageRig.errorsTopic, 1),
            ] {
                for partition in 0..<partitions {
                    let command = "leader \(topic) \(partition) \(broker)"
                    #expect(try await rig.cluster.command(command) == "ok \(command)")
                }
            }
            // A hundred more answers under the new leaders, or all of them: a fast worker may have answered every
            // request by now, and waiting for answers that cannot come held this test a whole minute.
            _ = await rig.waitForOutcomes(atLeast: min(rig.outcomes.count + 100, ids.count), timeout: .seconds(60))
        }
        try await second
        let answered = await rig.waitForAnswers(to: ids, timeout: .seconds(180))
        #expect(answered, "every request answered after the moves: \(rig.unansweredReport(ids))")
        #expect(rig.worker.isRunning, "the worker never exited")
        let termination = try await rig.stop()
        #expect(termination == .exited(0))

        let byRequest = Dictionary(grouping: rig.outcomes, by: { $0 })
        #expect(Set(byRequest.keys) == Set(ids), "nothing lost, nothing else answered")
        let duplicated = byRequest.values.filter { $0.count > 1 }.count
        #expect(Double(duplicated) <= Self.duplicateBound * Double(ids.count), "\(duplicated) duplicated requests")
        print("Leader moves: \(ids.count) requests, \(rig.outcomes.count) outcomes, \(duplicated) answered more than once")
    }
}

extension WorkerKafkaOutageEndToEndTests {
    /// A fatal Kafka error, raised for real: once the worker has published outcomes, its next produce request
    /// is answered OUT_OF_ORDER_SEQUENCE_NUMBER, which librdkafka 2.0.2 makes fatal to an idempotent producer.
    /// The worker stops on its own with status 3 and says why. (The test's own producer has sent everything
    /// before the error is injected: the cluster fails the next Produce request, whoever sends it.)
    @Test func aFatalKafkaErrorStopsTheWorkerWithStatusThree() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await KafkaOutageRig(executable: executable, brokers: 1)
        #expect(await rig.waitForReadiness(true, timeout: .seconds(90)), "ready at start: \(rig.worker.log.suffix(3_000))")
        let ids = (0..<2_000).map { "fatal-\($0)" }
        try await rig.send(ids)
        #expect(await rig.waitForOutcomes(atLeast: 20, timeout: .seconds(120)), "answering")
        #expect(try await rig.cluster.command("errors Produce 45") == "ok errors Produce 45")

        let stopped = await poll(timeout: .seconds(90)) { !rig.worker.isRunning }
        #expect(stopped, "the worker stops on a fatal error: \(rig.worker.log.suffix(3_000))")
        #expect(rig.worker.termination == .exited(3), "exit status 3: \(String(describing: rig.worker.termination))")
        let log = rig.worker.log
        #expect(log.contains("stopping: a Kafka client failed fatally"))
        #expect(log.contains("OUT_OF_ORDER_SEQUENCE_NUMBER"))
        #expect(log.contains("query-worker: a Kafka client failed fatally"))
        _ = try await rig.stop()
    }
}
