import BenchmarkSupport
import Foundation
import Logging

/// One measured throughput run of the worker: `requests` ids queries queued on the request topic before the
/// worker starts, then the worker (`query-worker run`, a fresh process) works through them at its
/// max-in-flight while this process reads the outcomes back.
///
/// The rate and CPU times cover the steady state (``SteadyStateWindow``).
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
        let window = try await SteadyStateWindow.measure(worker, reader, total: messages.count, skip: skip, serverPID: serverPID)
        return Figures(
            requestsPerSecond: window.requestsPerSecond, workerCPUMilliseconds: window.workerCPUSeconds * 1e3,
            kafkaCPUMilliseconds: window.driverCPUSeconds * 1e3, serverCPUMilliseconds: window.serverCPUSeconds.map { $0 * 1e3 },
            workerPeakKiB: ProcessStats.peakRSSKiB(pid: worker.pid) ?? 0)
    }
}
