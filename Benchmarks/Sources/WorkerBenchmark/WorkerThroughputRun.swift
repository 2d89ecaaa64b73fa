import BenchmarkSupport
import Foundation
import Logging

/// One measured throughput run of the worker: `requests` ids queries queued on the request topic before the
/// worker starts, then the worker (`query-worker run`, a fresh process) works through them at its
/// max-in-flight while this process reads the outcomes back.
///
/// The rate is over the steady state: from the arrival of outcome number `skip` to that of the last one,
/// so the worker's start (joining the group, the first metadata request, connections) is left out. CPU
/// times are read over the same window.
struct WorkerThroughputRun {
    /// What a run measured.
    struct Figures {
        var requestsPerSecond: Double
        /// The worker's CPU time per request, in milliseconds.
        var workerCPUMilliseconds: Double
        /// This driver's CPU per request: the mock Kafka cluster and the outcome reader.
        var kafkaCPUMilliseconds: Double
        /// The sample server's CPU per request (nil without its pid).
        var serverCPUMilliseconds: Double?
        /// The worker's peak RSS (VmHWM) at the end, in KiB.
        var workerPeakKiB: Int
    }

    let rig: KafkaRig
    let messages: [(key: String, value: String)]
    let skip: Int
    let maxInFlight: Int
    let queryWorker: String
    let cpus: String?
    let serverPID: Int32?
    let workDirectory: String
    /// Further `--set key=value` settings for the worker.
    var extraSettings: [String] = []
    /// The worker's credentials file, or nil for none.
    var credentialsFile: String? = nil
    let logger: Logger

    func run(_ name: String) async throws -> Figures {
        let topics = try rig.makeTopics(name, requestPartitions: 3)
        try await rig.publish(messages, topic: topics.requests)
        let reader = try OutcomeReader(rig: rig, topics: topics, logger: logger)
        guard await reader.waitAssigned(timeout: .seconds(30)) else {
            await reader.stop()
            throw BenchmarkError("the outcome reader was assigned no partitions in 30 s")
        }
        let worker = try WorkerChild(WorkerChild.Configuration(
            queryWorker: queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(name)", topics: topics,
            maxInFlight: maxInFlight, cpus: cpus, logFile: "\(workDirectory)/\(name).log", extraSettings: extraSettings,
            credentialsFile: credentialsFile))
        do {
            let figures = try await measure(worker, reader)
            await worker.stop()
            await reader.stop()
            return figures
        } catch {
            await worker.stop()
            await reader.stop()
            throw error
        }
    }

    private func measure(_ worker: WorkerChild, _ reader: OutcomeReader) async throws -> Figures {
        let total = messages.count
        try await waitFor(skip, reader, worker)
        let worker0 = ProcessStats.cpuSeconds(pid: worker.pid)
        let driver0 = ProcessStats.ownCPUSeconds()
        let server0 = serverPID.flatMap(ProcessStats.cpuSeconds(pid:))
        try await waitFor(total, reader, worker)
        let worker1 = ProcessStats.cpuSeconds(pid: worker.pid)
        let driver1 = ProcessStats.ownCPUSeconds()
        let server1 = serverPID.flatMap(ProcessStats.cpuSeconds(pid:))
        let peak = ProcessStats.peakRSSKiB(pid: worker.pid) ?? 0

        let outcomes = reader.outcomes
        let failed = outcomes.filter { $0.status != "succeeded" }
        guard failed.isEmpty else {
            let sample = failed.prefix(5).map { "\($0.requestId): \($0.status)" }.joined(separator: ", ")
            throw BenchmarkError("\(failed.count) of \(outcomes.count) requests did not succeed (\(sample)); log: \(worker.logFile)")
        }
        guard Set(outcomes.map(\.requestId)).count == total else {
            throw BenchmarkError("\(outcomes.count) outcomes for \(Set(outcomes.map(\.requestId)).count) distinct requests, not \(total)")
        }
        let window = (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds
        let counted = Double(total - skip)
        guard window > 0, let worker0, let worker1 else { throw BenchmarkError("cannot read the worker's CPU time or clock") }
        var serverPerRequest: Double?
        if let server0, let server1 { serverPerRequest = (server1 - server0) * 1e3 / counted }
        return Figures(
            requestsPerSecond: counted / window, workerCPUMilliseconds: (worker1 - worker0) * 1e3 / counted,
            kafkaCPUMilliseconds: (driver1 - driver0) * 1e3 / counted, serverCPUMilliseconds: serverPerRequest,
            workerPeakKiB: peak)
    }

    private func waitFor(_ count: Int, _ reader: OutcomeReader, _ worker: WorkerChild) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await reader.wait(for: count, timeout: .seconds(1), interval: .milliseconds(2))) {
            try worker.checkAlive("after \(reader.count) of \(messages.count) outcomes")
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(reader.count) of \(messages.count) outcomes in 600 s; log: \(worker.logFile)")
            }
        }
    }
}
