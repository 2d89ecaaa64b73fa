import BenchmarkSupport
import Foundation

/// What one worker process cost over the steady state of a run: from the arrival of outcome number `skip`
/// to that of the last one, so start-up (joining the group, connections, the layer's metadata, an
/// interpreter's imports) is left out. CPU is utime+stime of the whole process (every thread) from
/// /proc/PID/stat, read at both ends of the window; the runs of every benchmark that drives a worker through
/// queued requests measure this way.
///
/// The window's requests are counted by when the worker produced them (each outcome's Kafka timestamp, set
/// by the producing client), not by when this driver read them: the reader shares a CPU with the worker and
/// reads outcomes in bursts, so when it sees outcome `skip` the worker may be thousands further on. Counting
/// from the reader's view then divided the CPU of a short window by many more requests (a 10,000-request
/// run printed 50 µs per request where longer runs of the same binary printed 90-110). Outcomes without a
/// timestamp fall back to the reader's view.
struct SteadyStateWindow {
    var requestsPerSecond: Double
    /// CPU seconds per request: the worker's, this driver's (the mock cluster and the outcome reader), and
    /// the sample server's (nil without its pid).
    var workerCPUSeconds: Double
    var driverCPUSeconds: Double
    var serverCPUSeconds: Double?

    /// Waits for all `total` outcomes, checks that every request succeeded exactly once, and returns the
    /// window's figures.
    static func measure(
        _ worker: any MeasuredWorker, _ reader: OutcomeReader, total: Int, skip: Int, serverPID: Int32?
    ) async throws -> SteadyStateWindow {
        try await waitFor(skip, of: total, reader, worker)
        let worker0 = ProcessStats.cpuSeconds(pid: worker.pid)
        let startMs = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let driver0 = ProcessStats.ownCPUSeconds()
        let server0 = serverPID.flatMap(ProcessStats.cpuSeconds(pid:))
        try await waitFor(total, of: total, reader, worker)
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
        let (counted, window) = countedWindow(outcomes, total: total, skip: skip, startMs: startMs)
        guard window > 0, let worker0, let worker1 else { throw BenchmarkError("cannot read the worker's CPU time or clock") }
        var server: Double?
        if let server0, let server1 { server = (server1 - server0) / counted }
        return SteadyStateWindow(
            requestsPerSecond: counted / window, workerCPUSeconds: (worker1 - worker0) / counted,
            driverCPUSeconds: (driver1 - driver0) / counted, serverCPUSeconds: server)
    }

    /// The requests the worker finished after `startMs` (when the first CPU reading was taken) and the
    /// seconds from then to its last outcome; by the reader's clock when the outcomes carry no timestamps.
    static func countedWindow(
        _ outcomes: [OutcomeReader.Outcome], total: Int, skip: Int, startMs: Int64
    ) -> (counted: Double, seconds: Double) {
        let produced = outcomes.compactMap(\.producedMs)
        if produced.count == outcomes.count, let last = produced.max(), last > startMs {
            let after = produced.filter { $0 > startMs }.count
            return (Double(after), Double(last - startMs) / 1000)
        }
        return (Double(total - skip), (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds)
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
