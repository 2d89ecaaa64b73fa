import BenchmarkSupport
import Foundation
import Synchronization

/// The CPU times of a run's processes (the worker, this driver, the sample server) read every 10 ms with
/// the wall clock, so that ``SteadyStateWindow`` can read them at any moment of the run afterwards: at the
/// times the worker produced its outcomes, which the driver learns only later.
final class CPUSampler: Sendable {
    struct Sample: Sendable {
        /// Wall-clock milliseconds since the epoch (the clock Kafka's message timestamps use).
        var ms: Int64
        var worker: Double?
        var driver: Double
        var server: Double?
    }

    private let workerPID: Int32
    private let serverPID: Int32?
    private let samples = Mutex<[Sample]>([])

    init(workerPID: Int32, serverPID: Int32?) {
        self.workerPID = workerPID
        self.serverPID = serverPID
    }

    /// Samples every 10 ms until cancelled.
    func run() async {
        while !Task.isCancelled {
            _ = sampleNow()
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Reads the CPU times now, keeps and returns them.
    @discardableResult
    func sampleNow() -> Sample {
        let sample = Sample(
            ms: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)),
            worker: ProcessStats.cpuSeconds(pid: workerPID), driver: ProcessStats.ownCPUSeconds(),
            server: serverPID.flatMap(ProcessStats.cpuSeconds(pid:)))
        samples.withLock { $0.append(sample) }
        return sample
    }

    /// The CPU times at `ms`, interpolated between the samples around it; nil outside the sampled span.
    func sample(atMs ms: Int64) -> Sample? {
        let all = samples.withLock { $0 }.sorted { $0.ms < $1.ms }
        guard let after = all.firstIndex(where: { $0.ms >= ms }) else { return nil }
        let next = all[after]
        guard after > 0, next.ms > ms else { return next.ms == ms ? next : nil }
        let previous = all[after - 1]
        let fraction = Double(ms - previous.ms) / Double(next.ms - previous.ms)
        func between(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b else { return nil }
            return a + (b - a) * fraction
        }
        return Sample(
            ms: ms, worker: between(previous.worker, next.worker),
            driver: previous.driver + (next.driver - previous.driver) * fraction,
            server: between(previous.server, next.server))
    }
}
