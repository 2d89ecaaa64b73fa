import BenchmarkSupport
import Foundation
import Logging

/// One measured run of one side of the CPU benchmark: the requests queued on fresh topics before the worker
/// starts, then the worker (a fresh process, ours or the peer) works through them while this process reads
/// the outcomes back.
///
/// Rates and CPU times cover the steady state: from the arrival of outcome number `skip` to that of the
/// last one, so start-up (joining the group, connections, the layer's metadata, Python's imports) is left
/// out. CPU is utime+stime of the whole process (every thread) from /proc/PID/stat.
struct CPURun {
    /// What a run measured.
    struct Figures {
        var requestsPerSecond: Double
        /// The worker's CPU time per request, in microseconds.
        var workerCPUMicroseconds: Double
        /// The sample server's CPU per request, in microseconds (nil without its pid).
        var serverCPUMicroseconds: Double?
        /// This driver's CPU per request (the mock cluster and the outcome reader), in microseconds.
        var kafkaCPUMicroseconds: Double
    }

    let rig: KafkaRig
    let messages: [(key: String, value: String)]
    let skip: Int
    let serverPID: Int32?
    /// Partitions of the results topic (the mock cluster keeps about the last 5 MiB of each).
    var resultsPartitions = 1
    let logger: Logger

    /// Runs the side `start` makes (given the run's topics and group id) through the queued requests.
    func run(_ name: String, start: (BenchmarkTopics, String) throws -> any MeasuredWorker) async throws -> Figures {
        let topics = BenchmarkTopics(requests: "requests-\(name)", results: "results-\(name)", errors: "errors-\(name)")
        try rig.cluster.createTopic(topics.requests, partitions: 3)
        try rig.cluster.createTopic(topics.results, partitions: resultsPartitions)
        try rig.cluster.createTopic(topics.errors, partitions: 1)
        try await rig.publish(messages, topic: topics.requests)
        let reader = try OutcomeReader(rig: rig, topics: topics, logger: logger)
        guard await reader.waitAssigned(timeout: .seconds(30)) else {
            await reader.stop()
            throw BenchmarkError("the outcome reader was assigned no partitions in 30 s")
        }
        let worker: any MeasuredWorker
        do { worker = try start(topics, "workers-\(name)") } catch {
            await reader.stop()
            throw error
        }
        do {
            let figures = try await measure(worker, reader)
            await worker.stop(timeout: .seconds(10))
            await reader.stop()
            return figures
        } catch {
            await worker.stop(timeout: .seconds(10))
            await reader.stop()
            throw error
        }
    }

    private func measure(_ worker: any MeasuredWorker, _ reader: OutcomeReader) async throws -> Figures {
        let total = messages.count
        try await waitFor(skip, reader, worker)
        let worker0 = ProcessStats.cpuSeconds(pid: worker.pid)
        let driver0 = ProcessStats.ownCPUSeconds()
        let server0 = serverPID.flatMap(ProcessStats.cpuSeconds(pid:))
        try await waitFor(total, reader, worker)
        let worker1 = ProcessStats.cpuSeconds(pid: worker.pid)
        let driver1 = ProcessStats.ownCPUSeconds()
        let server1 = serverPID.flatMap(ProcessStats.cpuSeconds(pid:))

        let outcomes = reader.outcomes
        let failed = outcomes.filter { $0.status != "succeeded" }
        guard failed.isEmpty else {
            let sample = failed.prefix(5).map { "\($0.requestId): \($0.status)" }.joined(separator: ", ")
            throw BenchmarkError("\(failed.count) of \(outcomes.count) requests did not succeed (\(sample)); log: \(worker.logFile)")
        }
        let distinct = Set(outcomes.map(\.requestId)).count
        guard distinct == total else {
            throw BenchmarkError("\(outcomes.count) outcomes for \(distinct) distinct requests, not \(total); log: \(worker.logFile)")
        }
        let window = (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds
        let counted = Double(total - skip)
        guard window > 0, let worker0, let worker1 else { throw BenchmarkError("cannot read the worker's CPU time or clock") }
        var server: Double?
        if let server0, let server1 { server = (server1 - server0) * 1e6 / counted }
        return Figures(
            requestsPerSecond: counted / window, workerCPUMicroseconds: (worker1 - worker0) * 1e6 / counted,
            serverCPUMicroseconds: server, kafkaCPUMicroseconds: (driver1 - driver0) * 1e6 / counted)
    }

    private func waitFor(_ count: Int, _ reader: OutcomeReader, _ worker: any MeasuredWorker) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await reader.wait(for: count, timeout: .seconds(1), interval: .milliseconds(2))) {
            try worker.checkAlive("after \(reader.count) of \(messages.count) outcomes")
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(reader.count) of \(messages.count) outcomes in 600 s; log: \(worker.logFile)")
            }
        }
    }
}
