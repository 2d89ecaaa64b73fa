import Foundation
import Kafka
import SampleFeatureServer
import Synchronization
import Testing
import WorkerTestSupport

@testable import QueryWorker

/// The worker's life over time, end to end against the embedded cluster and the sample feature server:
/// flow control at the in-flight bound, graceful shutdown under load followed by a restart, and a rebalance
/// while requests are in flight (in WorkerLifecycleTestsRebalance.swift). No assertion depends on timing: the
/// tests wait for conditions (with generous limits) and then check outcomes and counts.
@Suite("Worker lifecycle end to end")
struct WorkerLifecycleTests {
    static let pauseLine = "in-flight bound reached; pausing partitions"
    static let resumeLine = "below the low mark; resuming partitions"

    // MARK: Pause and resume at the bound

    @Test func pausesAtTheInFlightBoundResumesAtTheLowMarkAndAnswersEverything() async throws {
        let rig = try await LifecycleRig(
            // Longer than WorkerCore.partitionPauseDelay: the gate stays closed long enough for the partitions
            // to be paused in librdkafka too.
            partitions: 3, faults: [FaultRule(.latency(milliseconds: 800), pathContains: "USA/MapServer/3/query")])
        let worker = try rig.startWorker("bounded") {
            $0.limits.maxInFlight = 4
            $0.limits.lowMark = 2
        }
        // The gate's own count, sampled while the worker works: requests received whose outcome is not yet in
        // the producer's queue (outcomes waiting only for their delivery reports are the producer's to bound).
        let peak = Atomic<Int>(0)
        let sampling = Atomic<Bool>(true)
        let sampler = Task {
            while sampling.load(ordering: .relaxed) {
                let load = worker.core.state.withLock { $0.gateLoad }
                _ = peak.max(load, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(1))
            }
        }

        let ids = (0..<20).map { "bound-\($0)" }
        try await rig.send(ids.map { id in
            (key: id, json: LifecycleRig.request(id, task: id, url: rig.url(.counties), query: #"{"result":"count"}"#))
        })
        #expect(await rig.waitForAnswers(to: ids), "every request is answered")
        sampling.store(false, ordering: .relaxed)
        await sampler.value

        #expect(peak.load(ordering: .relaxed) <= 4, "requests running or being answered exceeded maxInFlight")
        #expect(peak.load(ordering: .relaxed) >= 2, "the bound was never approached: the test proves nothing")
        #expect(worker.log.count(Self.pauseLine) >= 1, "the consumer was paused at the bound")
        #expect(worker.log.count(Self.resumeLine) >= 1, "the consumer was resumed at the low mark")
        #expect(worker.log.count(Self.resumeLine) <= worker.log.count(Self.pauseLine), "every resume follows a pause")

        #expect(try await worker.stop())
        #expect(try await rig.barrier())
        let byRequest = rig.outcomesByRequest
        #expect(Set(byRequest.keys) == Set(ids))
        #expect(byRequest.values.allSatisfy { $0.count == 1 }, "exactly one outcome per request")
        #expect(byRequest.values.allSatisfy { $0.first?.status == "succeeded" })
        try await rig.stop()
    }

    // MARK: Graceful shutdown under load, then a restart

    @Test func gracefulShutdownUnderLoadAnswersEveryReceivedRequestOnceAndARestartRepeatsNone() async throws {
        // Counties never answer in time (60 s); states answer at once. Half the requests are each.
        let rig = try await LifecycleRig(
            partitions: 4, faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "USA/MapServer/3/query")])
        let first = try rig.startWorker("first") {
            $0.limits.maxInFlight = 12
            $0.limits.lowMark = 6
            $0.timeouts.shutdown = .seconds(1)
        }
        let ids = (0..<40).map { "load-\($0)" }
        try await rig.send(ids.enumerated().map { index, id in
            let layer: SampleLayer = index.isMultiple(of: 2) ? .counties : .states
            return (key: id, json: LifecycleRig.request(id, task: id, url: rig.url(layer), query: #"{"result":"count"}"#))
        })

        // Load: the slow requests fill the worker to its bound and it pauses, with their queries at the server.
        #expect(await poll(timeout: .seconds(60)) { first.core.state.withLock { $0.gate.isPaused } }, "the worker filled up")
        #expect(await rig.server.waitUntil { !$0.recentQueries(.counties).isEmpty })
        // Requests running or being answered (the gate's count): outcomes already queued for delivery are not
        // in flight any more in the sense this test checks, and are not cancelled by a shutdown.
        let inFlightAtShutdown = first.core.state.withLock { $0.gateLoad }
        #expect(inFlightAtShutdown >= 4)

        #expect(try await first.stop(), "the worker's run ends after graceful shutdown")
        #expect(try await rig.barrier())

        // Every request the first worker received got exactly one outcome from it: succeeded, or cancelled
        // with code shutdown.
        let counters = first.core.state.withLock { $0.offsets.lifetimeCounters }
        let received = counters.values.reduce(0) { $0 + $1.received }
        let done = counters.values.reduce(0) { $0 + $1.done }
        let fromFirst = rig.outcomes.filter { $0.worker == "first" }
        #expect(received == done, "every received request is done: outcome delivered, offset stored")
        #expect(fromFirst.count == received, "one outcome per received request")
        #expect(Set(fromFirst.compactMap(\.requestId)).count == fromFirst.count, "no request answered twice")
        let cancelled = fromFirst.filter { $0.status == "cancelled" }
        #expect(cancelled.allSatisfy { $0.errorCode == "shutdown" })
        // A counties request cannot finish (its query is held 60 s), so each one the first worker received was in
        // flight at shutdown and is answered cancelled; a states request answers at once, so it succeeded (or, on
        // a loaded machine, was caught by the shutdown too). Exact, whatever mix of the two was in flight when the
        // gate paused (a count there once held more states than it seemed, and fewer counties than half).
        let counties = Set(ids.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
        for outcome in fromFirst {
            if let id = outcome.requestId, counties.contains(id) {
                #expect(outcome.status == "cancelled", "\(id) (counties) was in flight at shutdown: \(outcome.status ?? "?")")
            } else {
                #expect(outcome.status == "succeeded" || outcome.status == "cancelled", "\(outcome.requestId ?? "?")")
            }
        }
        #expect(!cancelled.isEmpty, "requests in flight at shutdown are answered cancelled")
        #expect(fromFirst.contains { $0.status == "succeeded" })
        #expect(received < ids.count, "some requests were still unread at shutdown: the restart must pick them up")

        // A new worker of the same group answers the rest, and none of what the first one answered.
        rig.server.setFaults([])
        let second = try rig.startWorker("second")
        #expect(await rig.waitForAnswers(to: ids), "no request is lost across the restart")
        #expect(try await second.stop())
        #expect(try await rig.barrier())

        let byRequest = rig.outcomesByRequest
        #expect(Set(byRequest.keys) == Set(ids))
        let repeated = byRequest.filter { $0.value.count > 1 }
        let warnings = first.log.text.filter { $0.hasPrefix("warning") || $0.hasPrefix("error") || $0.contains("partitions") || $0.contains("drain") }
        #expect(repeated.isEmpty, "answered twice across the restart: \(repeated.keys.sorted())\nthe first worker's log:\n\(warnings.joined(separator: "\n"))")
        let fromSecond = rig.outcomes.filter { $0.worker == "second" }
        #expect(fromSecond.count == ids.count - received)
        #expect(fromSecond.allSatisfy { $0.status == "succeeded" })
        try await rig.stop()
    }

    /// Answers that finish together on one partition store its offset from several tasks at once: the offset
    /// stored last must be the highest, or the commit goes back and a restart answers those requests again.
    @Test func aShutdownCancellingManyRequestsOfOnePartitionCommitsPastAllOfThem() async throws {
        let rig = try await LifecycleRig(
            partitions: 1, faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "USA/MapServer/3/query")])
        let worker = try rig.startWorker("many") { $0.timeouts.shutdown = .milliseconds(200) }
        let ids = (0..<200).map { "many-\($0)" }
        try await rig.send(ids.map { id in
            (key: id, json: LifecycleRig.request(id, task: id, url: rig.url(.counties), query: #"{"result":"count"}"#))
        })
        #expect(await poll(timeout: .seconds(60)) { worker.core.state.withLock { $0.registry.runCount } == ids.count })
        #expect(try await worker.stop())
        #expect(await rig.waitForAnswers(to: ids))

        let partition = KafkaTopicPartition(topic: rig.baseSettings.topics.requests, partition: 0)
        let probe = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: rig.baseSettings.bootstrapServers),
                groupID: rig.baseSettings.groupID, topics: [partition.topic]),
            logger: LifecycleRig.logger)
        let committed = try await probe.committedOffsets(for: [partition])
        #expect(committed[partition] == Int64(ids.count), "the group's commit covers every answered request")
        try await rig.stop()
    }

    // MARK: Partitions lost while paused

    /// A member whose assignment is lost (here: a heartbeat answered UNKNOWN_MEMBER_ID, as when the
    /// coordinator dropped it) stops those requests without answers; whoever reads the partitions next
    /// answers them. A worker that those requests had paused at its bound must resume: the lost requests never
    /// become done, and `pauseAll` holds for partitions assigned later.
    @Test func aWorkerPausedByRequestsOfLostPartitionsResumesAndAnswersThemAfterRejoining() async throws {
        let rig = try await LifecycleRig(
            partitions: 2, faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "USA/MapServer/3/query")])
        let worker = try rig.startWorker("lost") {
            $0.limits.maxInFlight = 4
            $0.limits.lowMark = 2
            // The coordinator waits for the forgotten member id's session before the new one is assigned.
            $0.kafkaProperties["session.timeout.ms"] = "3000"
            $0.kafkaProperties["heartbeat.interval.ms"] = "500"
        }
        let held = (0..<4).map { "held-\($0)" }
        try await rig.send(held.map { id in
            (key: id, json: LifecycleRig.request(id, task: id, url: rig.url(.counties), query: #"{"result":"count"}"#))
        })
        #expect(await poll(timeout: .seconds(60)) { worker.core.state.withLock { $0.gate.isPaused } }, "paused at the bound")

        // Heartbeat errors are cluster-wide: the rig's reader (another group) may take one instead; it then
        // reads again from the start, and the rig drops what it already read.
        var lost = false
        for _ in 0..<10 where !lost {
            rig.cluster.pushRequestErrors(.heartbeat, [EmbeddedKafkaCluster.ResponseCode(25)])  // UNKNOWN_MEMBER_ID
            lost = await poll(timeout: .seconds(5)) { worker.log.count("partitions lost") >= 1 }
        }
        try #require(lost, "the worker's assignment was lost")

        rig.server.setFaults([])
        let later = (0..<4).map { "later-\($0)" }
        try await rig.send(later.map { id in
            (key: id, json: LifecycleRig.request(id, task: id, url: rig.url(.states), query: #"{"result":"count"}"#))
        })
        #expect(await rig.waitForAnswers(to: held + later), "the worker consumes again after rejoining")
        #expect(try await worker.stop())
        #expect(try await rig.barrier())
        let byRequest = rig.outcomesByRequest
        #expect(Set(byRequest.keys) == Set(held + later))
        #expect(byRequest.values.allSatisfy { $0.count == 1 }, "lost requests get no answer of their own: one outcome each")
        #expect(byRequest.values.allSatisfy { $0.first?.status == "succeeded" })
        try await rig.stop()
    }
}
