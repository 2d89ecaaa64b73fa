import BenchmarkSupport
import Foundation

/// What one worker process cost over the steady state of a run: from the arrival of outcome number `skip`
/// to that of the last one, so start-up (joining the group, connections, the layer's metadata, an
/// interpreter's imports) is left out. CPU is utime+stime of the whole process (every thread) from
/// /proc/PID/stat, read at both ends of the window; the runs of every benchmark that drives a worker through
/// queued requests measure this way.
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
        let window = (outcomes[total - 1].arrived - outcomes[skip - 1].arrived).seconds
        let counted = Double(total - skip)
        guard window > 0, let worker0, let worker1 else { throw BenchmarkError("cannot read the worker's CPU time or clock") }
        var server: Double?
        if let server0, let server1 { server = (server1 - server0) / counted }
        return SteadyStateWindow(
            requestsPerSecond: counted / window, workerCPUSeconds: (worker1 - worker0) / counted,
            driverCPUSeconds: (driver1 - driver0) / counted, serverCPUSeconds: server)
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
