import BenchmarkSupport
import Foundation
import Logging

/// One measured run of one side of the CPU benchmark: the requests queued on fresh topics before the worker
/// starts, then the worker (a fresh process, ours or the peer) works through them while this process reads
/// the outcomes back; once the side is stopped, each outcome is checked and digested (``OutcomeDigest``).
///
/// Rates and CPU times cover the steady state (``SteadyStateWindow``).
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
        /// What each request's outcome answered, by request index (read after the measured window).
        var outcomes: [Int: OutcomeDigest] = [:]
        /// The outcomes' mean size as published (before the producer's compression): what the Kafka side of
        /// each side carries.
        var outcomeBytes: Double = 0
        /// Counted events per request (`--events`); empty when nothing was counted.
        var eventsPerRequest: [String: Double] = [:]
    }

    let rig: KafkaRig
    /// The kind the messages ask for: what their outcomes must hold.
    let kind: CPUWorkload.Kind
    let messages: [(key: String, value: String)]
    let skip: Int
    let serverPID: Int32?
    /// Partitions of the results topic (the mock cluster keeps about the last 5 MiB of each).
    var resultsPartitions = 1
    /// perf events to count in the side's process over the window (``EventCounter``), and the directory for
    /// perf's output; nil counts nothing.
    var counting: (events: [String], directory: String)?
    let logger: Logger

    /// Partitions of the requests topic.
    static let requestPartitions = 3
    /// What one partition of the mock cluster may hold of a run's requests: it keeps about the last 5 MiB of each
    /// and silently drops older batches, and every request is published before the worker starts.
    static let partitionBudget = 4 << 20

    /// Refuses a run whose requests the mock cluster would not keep: the worker would never see the dropped
    /// ones, and the run would wait for their outcomes until it timed out (60,000 `count` requests did).
    static func checkFits(_ messages: [(key: String, value: String)], partitions: Int) throws {
        let bytes = KafkaRig.framedBytes(messages)
        guard bytes > partitionBudget * partitions else { return }
        let fitting = partitionBudget * partitions / max(1, bytes / max(1, messages.count))
        throw BenchmarkError(
            "\(messages.count) requests (\(format(Double(bytes) / 1e6, 1)) MB) do not fit the mock cluster's \(partitions) "
                + "request partitions (it keeps about 5 MiB of each and drops older messages); use at most about \(fitting) "
                + "requests per run (--count-requests, --ids-requests, --features-requests)")
    }

    /// Runs the side `start` makes (given the run's topics and group id) through the queued requests.
    func run(_ name: String, start: (BenchmarkTopics, String) throws -> any MeasuredWorker) async throws -> Figures {
        let topics = BenchmarkTopics(requests: "requests-\(name)", results: "results-\(name)", errors: "errors-\(name)")
        try Self.checkFits(messages, partitions: Self.requestPartitions)
        try rig.cluster.createTopic(topics.requests, partitions: Self.requestPartitions)
        try rig.cluster.createTopic(topics.results, partitions: resultsPartitions)
        try rig.cluster.createTopic(topics.errors, partitions: 1)
        try await rig.publish(messages, topic: topics.requests)
        let reader = try OutcomeReader(rig: rig, topics: topics, keepingValues: true, logger: logger)
        guard await reader.waitAssigned(timeout: .seconds(30)) else {
            await reader.stop()
            throw BenchmarkError("the outcome reader was assigned no partitions in 30 s")
        }
        let worker: any MeasuredWorker
        do { worker = try start(topics, "workers-\(name)") } catch {
            await reader.stop()
            throw error
        }
        var figures: Figures
        do { figures = try await measure(worker, reader, name: name) } catch {
            await worker.stop(timeout: .seconds(10))
            await reader.stop()
            throw error
        }
        await worker.stop(timeout: .seconds(10))
        await reader.stop()
        figures.outcomes = try OutcomeDigest.digests(reader.outcomes, kind: kind, log: worker.logFile)
        let outcomes = reader.outcomes
        figures.outcomeBytes = outcomes.isEmpty ? 0 : Double(outcomes.reduce(0) { $0 + $1.value.count }) / Double(outcomes.count)
        return figures
    }

    private func measure(_ worker: any MeasuredWorker, _ reader: OutcomeReader, name: String) async throws -> Figures {
        let window = try await SteadyStateWindow.measure(
            worker, reader, total: messages.count, skip: skip, serverPID: serverPID,
            counting: counting.map { .init(events: $0.events, outputPath: "\($0.directory)/\(name).perf-stat") })
        return Figures(
            requestsPerSecond: window.requestsPerSecond, workerCPUMicroseconds: window.workerCPUSeconds * 1e6,
            serverCPUMicroseconds: window.serverCPUSeconds.map { $0 * 1e6 }, kafkaCPUMicroseconds: window.driverCPUSeconds * 1e6,
            eventsPerRequest: window.eventsPerRequest)
    }
}
