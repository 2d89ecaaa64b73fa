import BenchmarkSupport
import Foundation

/// What one worker process cost over the steady state of a run: from when it produced outcome number `skip`
/// to when it produced the last one, so start-up (joining the group, connections, the layer's metadata, an
/// interpreter's imports) is left out. CPU is utime+stime of the whole process (every thread) from
/// /proc/PID/stat; the runs of every benchmark that drives a worker through queued requests measure this way.
///
/// The window is placed by when the worker produced its outcomes (each outcome's Kafka timestamp, which the
/// producing client sets when it is handed the message), not by when this driver read them: the reader shares
/// a CPU with the worker, and a worker's first outcomes can reach Kafka in one burst (its idempotent producer
/// sends nothing before the cluster gave it a producer id). Placing the window by the reader's view divided
/// the CPU of a short window by many more requests: a 10,000-request run printed 50 µs per request where
/// longer runs of the same binary printed 90-110. So the CPU times are sampled every 10 ms through the run
/// (``CPUSampler``) and read at the window's two ends. Outcomes without a timestamp fall back to the reader's
/// view.
struct SteadyStateWindow {
    var requestsPerSecond: Double
    /// CPU seconds per request: the worker's, this driver's (the mock cluster and the outcome reader), and
    /// the sample server's (nil without its pid).
    var workerCPUSeconds: Double
    var driverCPUSeconds: Double
    var serverCPUSeconds: Double?
    /// Each counted event per request over the reader's view of the window (``EventCounter``); empty when
    /// nothing was counted.
    var eventsPerRequest: [String: Double] = [:]

    /// What to count in the worker's process over the window, and where perf writes its counts.
    struct Counting {
        var events: [String]
        var outputPath: String
    }

    /// Waits for all `total` outcomes, checks that every request succeeded exactly once, and returns the
    /// window's figures.
    static func measure(
        _ worker: any MeasuredWorker, _ reader: OutcomeReader, total: Int, skip: Int, serverPID: Int32?,
        counting: Counting? = nil
    ) async throws -> SteadyStateWindow {
        let sampler = CPUSampler(workerPID: worker.pid, serverPID: serverPID)
        let sampling = Task { await sampler.run() }
        defer { sampling.cancel() }
        try await waitFor(skip, of: total, reader, worker)
        let readerStart = sampler.sampleNow()
        let countedFrom = reader.count
        let counter = try counting.map { try EventCounter.start(pid: worker.pid, events: $0.events, outputPath: $0.outputPath) }
        let counts: [String: Double]
        do {
            try await waitFor(total, of: total, reader, worker)
            counts = try await counter?.stop() ?? [:]
        } catch {
            _ = try? await counter?.stop()
            throw error
        }
        let readerEnd = sampler.sampleNow()
        sampling.cancel()

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
        let counted = Double(total - skip)
        let start: CPUSampler.Sample
        let end: CPUSampler.Sample
        let seconds: Double
        let produced = outcomes.compactMap(\.producedMs).sorted()
        if produced.count == total, let first = sampler.sample(atMs: produced[skip - 1]),
            let last = sampler.sample(atMs: produced[total - 1]), produced[total - 1] > produced[skip - 1]
        {
            (start, end) = (first, last)
            seconds = Double(produced[total - 1] - produced[skip - 1]) / 1000
        } else {
            (start, end) = (readerStart, readerEnd)
            seconds = (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds
        }
        guard seconds > 0, let worker0 = start.worker, let worker1 = end.worker else {
            throw BenchmarkError("cannot read the worker's CPU time or clock")
        }
        var server: Double?
        if let server0 = start.server, let server1 = end.server { server = (server1 - server0) / counted }
        return SteadyStateWindow(
            requestsPerSecond: counted / seconds, workerCPUSeconds: (worker1 - worker0) / counted,
            driverCPUSeconds: (end.driver - start.driver) / counted, serverCPUSeconds: server,
            eventsPerRequest: counts.mapValues { $0 / Double(max(1, total - countedFrom)) })
    }

    private static func waitFor(_ count: Int, of total: Int, _ reader: OutcomeReader, _ worker: any MeasuredWorker) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await reader.wait(for: count, timeout: .seconds(1), interval: .milliseconds(2))) {
            try worker.checkAlive("after \(reader.count) of \(total) outcomes")
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(reader.count) of \(total) outcomes in 600 s; log: \(worker.logFile)")
            }
        }
    }
}
