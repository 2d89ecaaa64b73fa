import BenchmarkSupport
import Foundation
import Logging
import SampleFeatureServer

/// When one supersession (or raw engine cancel) started and when the server saw the old query's two
/// transfers (returnIdsOnly, returnCountOnly) aborted.
struct CancelSample: Sendable {
    /// The superseding request's publication, or `Task.cancel()` for the raw engine.
    var start: ContinuousClock.Instant
    var firstAbort: ContinuousClock.Instant
    var lastAbort: ContinuousClock.Instant
    /// The superseding request's id (worker side).
    var requestId: String?
}

/// The worker side of `supersession`: a chain of requests for one task, each superseding the one before.
///
/// The server delays every parcels query by ten minutes, so each request stays in flight until superseded.
/// Request i+1 is published once the server has seen both query requests of request i; the sample is from
/// its publication to the server seeing request i's two transfers aborted. The last request is cancelled
/// with a cancel message. Every superseded request must be answered `superseded`.
struct SupersessionWorkerSide {
    let rig: KafkaRig
    let server: SampleFeatureServer
    let queryWorker: String
    let cpus: String?
    let workDirectory: String
    /// The worker consumer's `fetch.wait.max.ms` (see ``SupersessionBenchmark``).
    let fetchWaitMs: Int
    let logger: Logger

    /// Runs `count` supersessions; returns the samples and the worker's log.
    func run(_ name: String, count: Int, seed: UInt64) async throws -> (samples: [CancelSample], log: WorkerLog) {
        let topics = try rig.makeTopics(name, requestPartitions: 1)
        let reader = try OutcomeReader(rig: rig, topics: topics, logger: logger)
        let worker = try WorkerChild(WorkerChild.Configuration(
            queryWorker: queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(name)", topics: topics,
            maxInFlight: 64, cpus: cpus, logFile: "\(workDirectory)/\(name).log",
            extraSettings: ["kafka.fetch.wait.max.ms=\(fetchWaitMs)"]))
        let log = WorkerLog(path: worker.logFile)
        do {
            guard await reader.waitAssigned(timeout: .seconds(30)) else { throw BenchmarkError("the outcome reader got no partitions") }
            try await log.wait(for: 1, message: "partitions assigned", timeout: .seconds(60)) { try worker.checkAlive("at start") }
            let samples = try await chain(name, count: count, seed: seed, topic: topics.requests, worker: worker)
            try await checkOutcomes(reader, superseded: count, worker: worker)
            await worker.stop()
            await reader.stop()
            return (samples, log)
        } catch {
            await worker.stop()
            await reader.stop()
            throw error
        }
    }

    private func chain(_ name: String, count: Int, seed: UInt64, topic: String, worker: WorkerChild) async throws -> [CancelSample] {
        let task = "task-\(name)"
        let layer = server.layerURL(.parcels)
        let specs = RequestFactory.specs(count: count + 1, seed: seed)
        var watch = ServerWatch(server)
        func request(_ index: Int) -> (key: String, value: String) {
            (task, RequestFactory.requestJSON(requestId: "\(name)-\(index)", taskId: task, layerURL: layer, specs[index]))
        }
        try await rig.publish([request(0)], topic: topic)
        var previous = try await watch.nextQueries(2)
        var samples: [CancelSample] = []
        for index in 1...count {
            let start = ContinuousClock.now
            try await rig.publish([request(index)], topic: topic)
            let aborts = try await watch.aborts(previous)
            guard let first = aborts.min(), let last = aborts.max() else { throw BenchmarkError("no abort times") }
            samples.append(CancelSample(start: start, firstAbort: first, lastAbort: last, requestId: "\(name)-\(index)"))
            previous = try await watch.nextQueries(2)
            if index % 100 == 0 { try worker.checkAlive("after \(index) supersessions") }
        }
        try await rig.publish([(task, #"{"taskId":"\#(task)","cancel":true}"#)], topic: topic)
        _ = try await watch.aborts(previous)
        return samples
    }

    /// Every superseded request answered `superseded`, the last one `cancelled`.
    private func checkOutcomes(_ reader: OutcomeReader, superseded: Int, worker: WorkerChild) async throws {
        guard await reader.wait(for: superseded + 1, timeout: .seconds(60)) else {
            throw BenchmarkError("only \(reader.count) of \(superseded + 1) outcomes arrived; log: \(worker.logFile)")
        }
        let statuses = Dictionary(grouping: reader.outcomes, by: \.status).mapValues(\.count)
        guard statuses["superseded"] == superseded, statuses["cancelled"] == 1 else {
            throw BenchmarkError("expected \(superseded) superseded and 1 cancelled outcomes, got \(statuses)")
        }
    }
}
