import BenchmarkSupport
import Foundation
import Logging

/// One measured scale-out run: `workers` fresh `query-worker run` processes join one group on a fresh
/// request topic of `partitions` partitions; once each has partitions and the group has settled, the
/// requests are published and this process reads the outcomes back.
///
/// The rate covers the steady state (outcome number `skip` to the last). Each worker's share is read from
/// its own log: its `succeeded` lines, and the distinct partitions they name.
struct ScaleRun {
    /// What a run measured.
    struct Figures {
        var workers: Int
        var requestsPerSecond: Double
        /// Outcomes per worker, in start order.
        var outcomes: [Int]
        /// Partitions each worker served (distinct partitions of its outcomes), in start order.
        var partitions: [Int]
        /// The workers' CPU time (all of them) per request, in microseconds.
        var workerCPUMicroseconds: Double
        /// The servers' CPU time (all of them) per request, in microseconds (nil without their pids).
        var serverCPUMicroseconds: Double?
    }

    let rig: KafkaRig
    let messages: [(key: String, value: String)]
    let skip: Int
    let partitions: Int
    let maxInFlight: Int
    let queryWorker: String
    let cpus: String?
    let serverPIDs: [Int32]
    let settle: Duration
    let workDirectory: String
    let logger: Logger

    func run(_ name: String, workers count: Int) async throws -> Figures {
        let topics = try rig.makeTopics(name, requestPartitions: partitions)
        let reader = try OutcomeReader(rig: rig, topics: topics, logger: logger)
        var workers: [WorkerChild] = []
        do {
            guard await reader.waitAssigned(timeout: .seconds(30)) else {
                throw BenchmarkError("the outcome reader was assigned no partitions in 30 s")
            }
            for index in 1...count {
                workers.append(try WorkerChild(WorkerChild.Configuration(
                    queryWorker: queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(name)", topics: topics,
                    maxInFlight: maxInFlight, cpus: cpus, logFile: "\(workDirectory)/\(name)-\(index).log",
                    extraSettings: ["workerId=bench-worker-\(index)", "maxRequestsPerHost=\(maxInFlight)"])))
            }
            for worker in workers {
                try await WorkerLog(path: worker.logFile).wait(
                    for: 1, message: "partitions assigned", timeout: .seconds(60), alive: { try worker.checkAlive("while joining") })
            }
            try await Task.sleep(for: settle)  // later members' joins rebalance the group once more
            try await rig.publish(messages, topic: topics.requests)
            let figures = try await measure(workers, reader)
            for worker in workers { await worker.stop() }
            await reader.stop()
            return figures
        } catch {
            for worker in workers { await worker.stop() }
            await reader.stop()
            throw error
        }
    }

    private func measure(_ workers: [WorkerChild], _ reader: OutcomeReader) async throws -> Figures {
        let total = messages.count
        try await waitFor(skip, reader, workers)
        let workers0 = workers.compactMap { ProcessStats.cpuSeconds(pid: $0.pid) }.reduce(0, +)
        let servers0 = serverPIDs.compactMap(ProcessStats.cpuSeconds(pid:)).reduce(0, +)
        try await waitFor(total, reader, workers)
        let workers1 = workers.compactMap { ProcessStats.cpuSeconds(pid: $0.pid) }.reduce(0, +)
        let servers1 = serverPIDs.compactMap(ProcessStats.cpuSeconds(pid:)).reduce(0, +)

        let outcomes = reader.outcomes
        let failed = outcomes.filter { $0.status != "succeeded" }
        guard failed.isEmpty else {
            let sample = failed.prefix(5).map { "\($0.requestId): \($0.status)" }.joined(separator: ", ")
            throw BenchmarkError("\(failed.count) of \(outcomes.count) requests did not succeed (\(sample))")
        }
        let window = (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds
        guard window > 0 else { throw BenchmarkError("no time passed between outcome \(skip) and \(total)") }
        let counted = Double(total - skip)
        var shares: [(outcomes: Int, partitions: Int)] = []
        for worker in workers {
            let succeeded = WorkerLog(path: worker.logFile).lines().filter { OutcomeFields.string("message", in: $0) == "succeeded" }
            let served = Set(succeeded.compactMap { OutcomeFields.string("partition", in: $0) })
            shares.append((succeeded.count, served.count))
        }
        return Figures(
            workers: workers.count, requestsPerSecond: counted / window, outcomes: shares.map(\.outcomes),
            partitions: shares.map(\.partitions), workerCPUMicroseconds: (workers1 - workers0) * 1e6 / counted,
            serverCPUMicroseconds: serverPIDs.isEmpty ? nil : (servers1 - servers0) * 1e6 / counted)
    }

    private func waitFor(_ count: Int, _ reader: OutcomeReader, _ workers: [WorkerChild]) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await reader.wait(for: count, timeout: .seconds(1), interval: .milliseconds(2))) {
            for worker in workers { try worker.checkAlive("after \(reader.count) of \(messages.count) outcomes") }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(reader.count) of \(messages.count) outcomes in 600 s")
            }
        }
    }
}
