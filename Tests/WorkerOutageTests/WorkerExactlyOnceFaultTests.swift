import ChildProcessFixture
import Foundation
import Glibc
import SampleFeatureServer
import Synchronization
import Testing
import WorkerTestSupport

/// Exactly-once under the faults that are not crashes: a second process taking a live worker's name (it fences
/// the first), a worker stalled past its session (a zombie), every broker away. A suite of its own beside the
/// crash loops (``WorkerExactlyOnceEndToEndTests``): each suite runs its tests one at a time, the two suites side
/// by side, so the process takes the longer suite's time rather than the sum of both.
@Suite("Worker: exactly-once under fencing, stalls and outages", .enabled(if: TransactionalKafka.testsRun), .serialized)
struct WorkerExactlyOnceFaultTests {
    @Test func aSecondProcessWithTheSameNameFencesTheFirstWhichStops() async throws {
        let rig = try await WorkerExactlyOnceEndToEndTests.rig()
        let first = try rig.startWorker("twin")
        try #require(await poll(timeout: .seconds(60)) { first.holdsPartitions }, "the first worker joined")
        let second = try rig.startWorker("twin", incarnation: 2)
        try #require(await poll(timeout: .seconds(60)) { second.log.contains(#""message":"transactions initialised""#) })

        // Requests on every partition: the first worker answers some, and its transaction is refused.
        let ids = (0..<60).map { "twin-\($0)" }
        try await rig.send(ids)
        let stopped = await poll(timeout: .seconds(90)) { !first.isRunning }
        #expect(stopped, "the fenced worker stops")
        #expect(first.termination == .exited(3), "exit status 3, for the orchestrator to restart it: \(String(describing: first.termination))")
        #expect(first.log.contains("the transactional producer failed fatally"), "\(first.log.suffix(3_000))")
        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(120)), "the second worker answers everything")
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(ids)
        #expect(tally.lost.isEmpty && tally.repeated.isEmpty, "each request answered once: \(tally)")
        try await WorkerExactlyOnceEndToEndTests.clientReadsCommittedOutcomes(rig)
        await first.stop()
        await second.stop()
        try await rig.stop(keepingLogs: !tally.lost.isEmpty || !tally.repeated.isEmpty)
    }

    /// A zombie: a worker stopped (SIGSTOP) with requests in flight until its session times out and the group
    /// gives its partitions to the other worker, which answers them again from the committed offsets; then
    /// let go (SIGCONT). What the zombie answers after that must not reach a read_committed reader: it hears
    /// its partitions were lost and drops those answers, and a transaction it had begun carries the group
    /// generation it had (KIP-447), which the coordinator refuses (the cluster's own check, `txn_check` H1).
    @Test func aWorkerStalledPastItsSessionCannotCommitWhatItAnswersAfterwards() async throws {
        let rig = try await WorkerExactlyOnceEndToEndTests.rig(faults: [FaultRule(.latency(milliseconds: 400), pathContains: "/query")])
        let zombie = try rig.startWorker("zombie")
        try #require(await poll(timeout: .seconds(60)) { zombie.holdsPartitions }, "the first worker joined")
        let other = try rig.startWorker("other")
        try #require(await poll(timeout: .seconds(60)) { zombie.holdsPartitions && other.holdsPartitions }, "both hold partitions")
        let pids = rig.workerPIDs("zombie")
        try #require(pids.count == 1, "the zombie's process: \(pids)")

        let ids = (0..<120).map { "zombie-\($0)" }
        try await rig.send(ids)
        try #require(await poll(timeout: .seconds(30)) { zombie.log.contains(#""message":"started""#) }, "the zombie runs requests")
        for pid in pids { kill(pid, SIGSTOP) }
        // The session (10 s) times out; the other worker takes every partition and answers what was not committed.
        let takenOver = await poll(timeout: .seconds(60)) {
            other.log.components(separatedBy: #""message":"partitions assigned""#).count > 2
        }
        for pid in pids { kill(pid, SIGCONT) }
        #expect(takenOver, "the other worker took the zombie's partitions")

        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(120)), "every request is answered")
        // The zombie has woken up and tried to publish what it was running.
        try await Task.sleep(for: .seconds(5))
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(ids)
        #expect(tally.lost.isEmpty, "no request lost: \(tally.lost.prefix(10))")
        #expect(tally.repeated.isEmpty, "answered more than once: \(tally.repeated.prefix(10))")
        print("exactly-once zombie: \(tally)")
        await zombie.stop()
        await other.stop()
        try await rig.stop(keepingLogs: !tally.lost.isEmpty || !tally.repeated.isEmpty)
    }

    /// Every broker away for 10 seconds in the middle of a run, longer than the worker's session (6 s): the
    /// worker loses its partitions with a transaction open and gets them back. Transactions fail and are aborted
    /// meanwhile, and their outcomes go out once the cluster is back, each once; the worker then stops cleanly
    /// (its last transaction committed before it leaves).
    ///
    /// A slow request (20 s) at the front of every partition holds each partition's committed offset behind
    /// answers already committed when the partitions are lost: the worker reads them again from that offset and
    /// leaves out those its commits named (``AnsweredOffsets``). Before it did, they were answered twice: with
    /// quick requests only, when one happened to be slow at the wrong moment (1–2 of 600 in about one full-suite
    /// run of three). The transaction timeout (Kafka's 60 s default) outlasts the outage: a transaction open
    /// longer is aborted by the cluster and its producer fenced (exit status 3). The requests' own producer
    /// retries across the outage; the cluster keeps a retried batch out of the log, as a broker does
    /// (``TransactionalClusterIdempotenceTests``), so a request is one message.
    @Test func everyBrokerAwayForTenSecondsAbortsNothingTwice() async throws {
        let rig = try await WorkerExactlyOnceEndToEndTests.rig(faults: [
            FaultRule(.latency(milliseconds: 20_000), pathContains: "USA/MapServer/3/query")
        ])
        let worker = try rig.startWorker(
            "steady", stopSignal: "TERM", transactionTimeout: .seconds(60), sessionTimeout: .seconds(6))
        try #require(await poll(timeout: .seconds(60)) { worker.holdsPartitions }, "the worker joined")
        let slow = try await rig.sendToEveryPartition("slow", layer: .counties)
        let ids = (0..<600).map { "outage-\($0)" }
        let sender = Task {
            for start in stride(from: 0, to: ids.count, by: 20) {
                try await rig.send(ids[start..<start + 20])
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(await poll(timeout: .seconds(120)) { rig.outcomes.count >= 200 }, "answering before the outage")
        #expect(try await rig.cluster.command("down all") == "ok down all")
        try await Task.sleep(for: .seconds(10))
        #expect(worker.isRunning, "the worker keeps running while Kafka is away")
        #expect(try await rig.cluster.command("up all") == "ok up all")
        try await sender.value
        #expect(await rig.waitForAnswers(to: slow + ids, timeout: .seconds(180)), "every request answered after the outage")
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(slow + ids)
        #expect(tally.lost.isEmpty && tally.repeated.isEmpty, "each request answered once: \(tally)")
        await worker.stop(timeout: .seconds(60))
        #expect(worker.termination == .exited(0), "a clean stop after the outage: \(worker.log.suffix(2_000))")
        let lines = worker.log.split(separator: "\n")
        let lostLines = lines.filter { $0.contains("partitions lost") }
        #expect(!lostLines.isEmpty, "the outage outlasted the session: the worker lost its partitions")
        let inherited = lines.filter { $0.contains("previous owner answered requests past its commit") }
        #expect(!inherited.isEmpty, "the partitions came back with answers committed past their offsets")
        print("exactly-once outage: \(tally); partitions lost \(lostLines.count) time(s), taken back with answers past the commit \(inherited.count) time(s)")
        try await rig.stop(keepingLogs: !tally.lost.isEmpty || !tally.repeated.isEmpty)
    }
}
