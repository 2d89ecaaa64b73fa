import ChildProcessFixture
import Testing
import WorkerTestSupport
import SampleFeatureServer

/// Issue 33 item 4: static membership (`--static-membership`, Kafka's KIP-345) on the transactional build of
/// the embedded cluster, whose coordinator implements it (ThirdParty/librdkafka-mock-transactions). A worker
/// killed with SIGKILL and restarted under its name within the session takes its partitions back without a
/// rebalance: the other worker is never revoked. Without it the same restart rebalances the group.
///
/// Either way each request is answered once: every partition holds a slow request at its front when the worker
/// is killed, so the answers of the requests after it are committed past the partition's committed offset, and
/// the partition's next owner (the restarted worker, or the other one after a rebalance) finds them named in
/// the commit's metadata and does not answer them again (without that, 19 of 200 were answered twice).
@Suite("Worker: static membership", .enabled(if: TransactionalKafka.testsRun), .serialized)
struct WorkerStaticMembershipTests {
    @Test(arguments: [true, false])
    func aRestartWithinTheSessionTakesThePartitionsBackWithoutARebalance(staticMembership: Bool) async throws {
        let rig = try await WorkerExactlyOnceEndToEndTests.rig(faults: [
            FaultRule(.latency(milliseconds: 8_000), pathContains: "USA/MapServer/3/query")
        ])
        let session = Duration.seconds(10)
        let steady = try rig.startWorker("steady", sessionTimeout: session, staticMembership: staticMembership)
        let victim = try rig.startWorker("victim", sessionTimeout: session, staticMembership: staticMembership)
        try #require(await poll(timeout: .seconds(60)) { steady.holdsPartitions && victim.holdsPartitions }, "both joined")
        let revokedBefore = Self.revocations(steady)

        // A slow request at the front of every partition, then fast ones behind it.
        let slow = try await rig.sendToEveryPartition("slow", layer: .counties)
        let fast = (0..<200).map { "static-\($0)" }
        let ids = slow + fast
        try await rig.send(fast[..<100])
        #expect(await poll(timeout: .seconds(60)) { rig.outcomes.count >= 50 }, "answering before the kill")
        await victim.stop()
        let restarted = try rig.startWorker(
            "victim", incarnation: 2, sessionTimeout: session, staticMembership: staticMembership)
        try await rig.send(fast[100...])
        #expect(await poll(timeout: .seconds(60)) { restarted.holdsPartitions }, "the restarted worker holds partitions")
        #expect(await rig.waitForAnswers(to: ids, timeout: .seconds(120)), "every request answered")
        #expect(try await rig.barrier(timeout: .seconds(60)))
        let tally = rig.tally(ids)
        #expect(tally.lost.isEmpty && tally.repeated.isEmpty, "each request answered once: \(tally)")

        let inherited = (steady.log + restarted.log).split(separator: "\n").count {
            $0.contains("previous owner answered requests past its commit")
        }
        #expect(inherited >= 1, "the next owner found answers named past the committed offsets")
        let revoked = Self.revocations(steady) - revokedBefore
        if staticMembership {
            #expect(revoked == 0, "the other worker kept its partitions through the restart: \(revoked) revocation(s)")
        } else {
            #expect(revoked >= 1, "a new member rebalances the group")
        }
        print(
            "static membership \(staticMembership): the other worker was revoked \(revoked) time(s); "
                + "assignments that inherited answers: \(inherited); \(tally)")
        await restarted.stop()
        await steady.stop()
        try await rig.stop(keepingLogs: !tally.lost.isEmpty || !tally.repeated.isEmpty)
    }

    /// The revocations and losses in a worker's log so far.
    static func revocations(_ worker: WatchedProcess) -> Int {
        worker.log.split(separator: "\n").count {
            $0.contains(#""message":"partitions revoked""#) || $0.contains(#""message":"partitions lost""#)
        }
    }
}
