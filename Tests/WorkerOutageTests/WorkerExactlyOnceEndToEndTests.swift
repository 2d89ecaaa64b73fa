import ChildProcessFixture
import FeatureQueryClient
import Foundation
import Glibc
import SampleFeatureServer
import Synchronization
import Testing
import WorkerTestSupport

/// Issue 16 item 2: `query-worker run --exactly-once` against a cluster that keeps transactional offset commits
/// (the transactional build of the embedded cluster, see ``TransactionalKafka``). A reader with
/// `isolation.level=read_committed` sees every request answered exactly once, while a worker of the group is
/// killed with SIGKILL and restarted under its name, and while a second process takes a live worker's name
/// (which fences the first: it stops with exit status 3).
@Suite("Worker: exactly-once outcomes", .enabled(if: TransactionalKafka.testsRun), .serialized)
struct WorkerExactlyOnceEndToEndTests {
    static let requests = 600
    static let kills = 3
    static let interval = Duration.seconds(3)

    @Test func aWorkerKilledRepeatedlyAnswersEveryRequestExactlyOnce() async throws {
        let tally = try await Self.crashLoop(exactlyOnce: true)
        #expect(tally.lost.isEmpty, "no request lost: \(tally.lost.prefix(10))")
        #expect(tally.repeated.isEmpty, "answered more than once: \(tally.repeated.prefix(10))")
        print("exactly-once crash loop: \(Self.kills) kills, \(tally)")
    }

    /// Issue 16 item 1 without transactions, on a coordinator that commits as a broker does (the transactional
    /// build's: it accepts commits of the current generation while the group prepares a rebalance; the stock
    /// mock refuses them for the whole join round, see `WorkerCrashLoopTests`). The at-least-once worker then
    /// repeats only what a killed worker delivered in its last commit's round trip (0 and 5 of 600 seen): the
    /// bound (a 25th) is loose so as not to flake on a loaded machine; `CLUSTER=transactional
    /// Benchmarks/run-crash-duplicates.sh` prints the full-size figure.
    @Test func atLeastOnceOnABrokerLikeCoordinatorRepeatsAlmostNothing() async throws {
        let tally = try await Self.crashLoop(exactlyOnce: false)
        #expect(tally.lost.isEmpty, "no request lost: \(tally.lost.prefix(10))")
        #expect(tally.repeated.count * 25 <= tally.requests, "answered more than once: \(tally.repeated.prefix(10))")
        print("at-least-once crash loop on a broker-like coordinator: \(Self.kills) kills, \(tally)")
    }

    /// Three workers, one killed with SIGKILL and restarted under its name every few seconds while requests
    /// arrive; returns how the requests were answered, by a read_committed reader.
    static func crashLoop(exactlyOnce: Bool) async throws -> ExactlyOnceRig.Tally {
        let rig = try await Self.rig()
        let victim = Mutex(try rig.startWorker("victim", exactlyOnce: exactlyOnce))
        // A process whose fixture goes away (a failed requirement) is stopped by its watchdog.
        let others = try ["steady-1", "steady-2"].map { try rig.startWorker($0, exactlyOnce: exactlyOnce) }
        let joined = await poll(timeout: .seconds(60)) {
            ([victim.withLock { $0 }] + others).allSatisfy { $0.holdsPartitions }
        }
        try #require(joined, "all three workers joined")

        let ids = (0..<Self.requests).map { "loop-\($0)" }
        let batches = Self.kills * 3
        let perBatch = (ids.count + batches - 1) / batches
        let kills = Task {
            for incarnation in 2...(Self.kills + 1) {
                try await Task.sleep(for: Self.interval)
                let killed = victim.withLock { $0 }
                await killed.stop()
                let next = try rig.startWorker("victim", incarnation: incarnation, exactlyOnce: exactlyOnce)
                victim.withLock { $0 = next }
            }
        }
        for batch in stride(from: 0, to: ids.count, by: perBatch) {
            try await rig.send(ids[batch..<min(ids.count, batch + perBatch)])
            try await Task.sleep(for: Self.interval / 3)
        }
        try await kills.value

        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(180)), "every request is answered")
        // Everything decided: no transaction of a worker is still open when the barrier is read.
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(ids)
        await victim.withLock { $0 }.stop()
        for worker in others { await worker.stop() }
        try await rig.stop()
        return tally
    }

    @Test func aSecondProcessWithTheSameNameFencesTheFirstWhichStops() async throws {
        let rig = try await Self.rig()
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
        try await Self.clientReadsCommittedOutcomes(rig)
        await first.stop()
        await second.stop()
        try await rig.stop()
    }

    /// A zombie: a worker stopped (SIGSTOP) with requests in flight until its session times out and the group
    /// gives its partitions to the other worker, which answers them again from the committed offsets; then
    /// let go (SIGCONT). What the zombie answers after that must not reach a read_committed reader: it hears
    /// its partitions were lost and drops those answers, and a transaction it had begun carries the group
    /// generation it had (KIP-447), which the coordinator refuses (the cluster's own check, `txn_check` H1).
    @Test func aWorkerStalledPastItsSessionCannotCommitWhatItAnswersAfterwards() async throws {
        let rig = try await Self.rig(faults: [FaultRule(.latency(milliseconds: 400), pathContains: "/query")])
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
        try await rig.stop()
    }

    /// Every broker away for 10 seconds in the middle of a run: transactions fail and are aborted meanwhile,
    /// and their outcomes go out once the cluster is back, each once; the worker then stops cleanly (its last
    /// transaction committed before it leaves). The transaction timeout (Kafka's 60 s default) outlasts the
    /// outage: a transaction open longer is aborted by the cluster and its producer fenced (exit status 3, seen
    /// here with 10 s on a loaded machine). The session (30 s) outlasts the outage too: an outage that outlasts
    /// the session, so that the member loses its partitions while a transaction is open and gets them back, still
    /// repeats an answer now and then on this cluster (2 of 600 in about one run of three; see
    /// docs/operations.md, "Exactly-once outcomes"), which is not understood yet.
    @Test func everyBrokerAwayForTenSecondsAbortsNothingTwice() async throws {
        let rig = try await Self.rig()
        let worker = try rig.startWorker(
            "steady", stopSignal: "TERM", transactionTimeout: .seconds(60), sessionTimeout: .seconds(30))
        try #require(await poll(timeout: .seconds(60)) { worker.holdsPartitions }, "the worker joined")
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
        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(180)), "every request answered after the outage")
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(ids)
        #expect(tally.lost.isEmpty && tally.repeated.isEmpty, "each request answered once: \(tally)")
        await worker.stop(timeout: .seconds(60))
        #expect(worker.termination == .exited(0), "a clean stop after the outage: \(worker.log.suffix(2_000))")
        print("exactly-once outage: \(tally)")
        try await rig.stop()
    }

    /// The client library configured for an exactly-once worker (`readCommitted`): its group-less reader starts
    /// at offsets resolved by timestamp and reads outcomes only as their transactions commit (the last stable
    /// offset); each job's outcome arrives, with the count the dataset says.
    static func clientReadsCommittedOutcomes(_ rig: ExactlyOnceRig) async throws {
        let client = try FeatureQueryClient(
            configuration: .init(
                bootstrapServers: [rig.cluster.bootstrapServers], requestsTopic: ExactlyOnceRig.requestsTopic,
                resultsTopic: ExactlyOnceRig.resultsTopic, errorsTopic: ExactlyOnceRig.errorsTopic,
                clientID: "eos-client", readCommitted: true, defaultTimeout: .seconds(60), fetchWaitMax: .milliseconds(10)),
            logger: ExactlyOnceRig.logger)
        let running = Task { try await client.run() }
        let states = try rig.server.dataset.groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        let jobs = (0..<6).map { index in
            QueryJob(
                taskId: "client-\(index)", targets: [.arcgis(url: rig.server.layerURL(.states))],
                query: Query(where: "POP2000 > 1000000", result: .count))
        }
        for result in await client.submit(jobs) {
            let outcome = try result.get()
            #expect(outcome.status == .succeeded && outcome.layers.first?.count == states.count, "\(outcome)")
        }
        running.cancel()
        _ = await running.result
    }

    static func rig(faults: [FaultRule] = []) async throws -> ExactlyOnceRig {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let directory = try #require(
            TransactionalKafka.libraryDirectory,
            "QUERY_WORKER_TRANSACTIONAL_KAFKA names no folder with librdkafka.so.1: run scripts/build-transactional-kafka")
        return try await ExactlyOnceRig(executable: executable, libraryDirectory: directory, faults: faults)
    }
}
