import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging
import SampleFeatureServer

/// `supersession`: how fast a superseding request aborts the old request's transfers, seen at the server,
/// against the same cancellation done directly on the engine.
struct SupersessionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supersession",
        abstract: "Superseding request → old transfers aborted at the server: worker against a raw engine cancel.",
        discussion: """
            The sample server runs in this process (its parcels queries delayed by ten minutes) and stamps \
            each request it sees aborted (the client closed the connection and the handler was cancelled) \
            with ContinuousClock; the worker is a `query-worker run` child. Figures, per supersession, to the \
            later of the old query's two aborts (returnIdsOnly and returnCountOnly):

            - received → aborted (the target): from the worker's "received" log line of the superseding \
            request (its `ts`, CLOCK_REALTIME, written right after the message is read and decoded; the \
            server's instants are mapped to the same clock) to the abort. `ts` is truncated to the \
            millisecond, so each figure is an upper bound, at most 1 ms above the true one.
            - published → aborted: from just before this process publishes the superseding request (linger \
            0) to the abort: the above plus Kafka's delivery to the worker. librdkafka's mock broker does \
            not answer a waiting fetch when new data arrives (a real broker does, at fetch.min.bytes=1): it \
            answers when fetch.wait.max.ms runs out, so at librdkafka's default (500 ms) this figure would \
            measure the mock's timer. The worker runs with --worker-fetch-wait-ms instead.
            - the raw engine: a task running ArcGISEngine.query in this process is cancelled; \
            Task.cancel() → aborted.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "Measured supersessions per run and side.")
    var supersessions: Int = 500

    @Option(help: "Supersessions left out at the start of each run (connections, metadata).")
    var warmups: Int = 20

    @Option(help: "Parcels of the in-process sample server.")
    var parcels: Int = 100_000

    @Option(help: "The worker consumer's fetch.wait.max.ms (see the discussion).")
    var workerFetchWaitMs: Int = 5

    @Option(help: "Target: the p99 of received → aborted, in milliseconds, below this.")
    var targetP99Ms: Double = 5

    func validate() throws {
        guard supersessions > 0, warmups >= 0 else { throw ValidationError("--supersessions must be positive, --warmups not negative") }
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-supersession")
        defer { work.remove() }
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: parcels, seed: 1,
                faults: [FaultRule(.latency(milliseconds: 600_000), pathContains: "FeatureServer/0/query")],
                recentRequestLimit: 256),
            logger: logger)
        output("worker-benchmark supersession: \(supersessions) supersessions (+\(warmups) warm-up) per run and side, "
            + "\(common.repetitions) runs, sides alternating; in-process sample server (\(parcels) parcels), parcels "
            + "queries delayed 600 s; worker CPUs: \(common.pinning ?? "unpinned"); worker fetch.wait.max.ms "
            + "\(workerFetchWaitMs)")
        let rig = try KafkaRig(linger: .zero, logger: logger)
        let workerSide = SupersessionWorkerSide(
            rig: rig, server: server, queryWorker: common.queryWorker, cpus: common.pinning, workDirectory: work.path,
            fetchWaitMs: workerFetchWaitMs, logger: logger)
        let engineSide = SupersessionEngineSide(server: server, logger: logger)
        var results = SupersessionResults()
        do {
            for repetition in 0..<common.repetitions {
                let seed = UInt64(1_000 + repetition)
                for side in repetition % 2 == 0 ? ["worker", "engine"] : ["engine", "worker"] {
                    if side == "worker" {
                        let mapping = ClockMapping()
                        let name = "ss\(repetition)-\(UUID().uuidString.prefix(6))"
                        let (samples, log) = try await workerSide.run(name, count: supersessions + warmups, seed: seed)
                        let run = WorkerSupersessionRun(Array(samples.dropFirst(warmups)), received: log.timestamps(message: "received"), mapping: mapping)
                        output("run \(repetition + 1): worker: " + run.summary)
                        results.worker.append(run)
                    } else {
                        let samples = try await engineSide.run(count: supersessions + warmups, seed: seed)
                        let run = EngineCancelRun(Array(samples.dropFirst(warmups)))
                        output("run \(repetition + 1): engine: " + run.summary)
                        results.engine.append(run)
                    }
                }
            }
        } catch {
            await rig.shutdown()
            await server.shutdown()
            throw error
        }
        await rig.shutdown()
        await server.shutdown()
        let passed = results.printTable(targetP99Ms: targetP99Ms, repetitions: common.repetitions)
        if common.strict && !passed { throw ExitCode(1) }
    }
}
