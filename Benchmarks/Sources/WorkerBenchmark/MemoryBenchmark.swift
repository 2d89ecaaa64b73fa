import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `memory`: the worker's peak RSS with a backlog waiting in the request topic and --in-flight requests running,
/// and its RSS idle; with its defaults and, as the peer, with librdkafka's (the worker's earlier defaults).
struct MemoryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Peak RSS (VmHWM) of a query-worker with 100,000 requests waiting and 1,000 running, and idle.",
        discussion: """
            Give it a sample server whose parcels queries are delayed (e.g. --fault \
            latency:ms=600000,path=FeatureServer/0/query), so no request finishes. --queued ids queries for \
            different tasks are published once, before any worker starts, on a topic of enough partitions that \
            each holds at most 2 MiB (librdkafka's mock cluster keeps about 5 MiB per partition and drops older \
            batches beyond it). Each measured run is a fresh `query-worker run` (max-in-flight = --in-flight) in a \
            fresh group, so it starts at the backlog's first offset: once it has logged "started" for --in-flight \
            requests and --settle-seconds have passed, its VmHWM and VmRSS are read from /proc/PID/status \
            (VmHWM, not ru_maxrss, which Linux carries across execve), and where the resident memory sits from \
            /proc/PID/smaps. The idle figure is another fresh worker on an empty topic, read --idle-seconds after \
            it joined. Each side runs with its --*-setting list (`--set key=value` of query-worker run): by \
            default the worker's own defaults against librdkafka's defaults (the worker's read-ahead and \
            producer queue the worker had before it set its own). The sample server's own figures are printed for scale.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The (delaying) sample server's services URL.")
    var serverURL: String

    @Option(help: "The sample server's process id, for its figures.")
    var serverPID: Int32?

    @Option(help: "Requests published before the worker starts (the backlog waiting in the topic).")
    var queued: Int = 100_000

    @Option(help: "Requests running at once (the worker's max-in-flight).")
    var inFlight: Int = 1_000

    @Option(help: "Request topic partitions; 0: enough that each holds at most 2 MiB of the backlog.")
    var partitions: Int = 0

    @Option(help: "Seconds to wait after the last request started, before reading the figures.")
    var settleSeconds: Int = 3

    @Option(help: "Seconds an idle worker runs after joining its group before its figures are read.")
    var idleSeconds: Int = 5

    @Option(help: "Target: the worker's peak RSS with the backlog and --in-flight running at most this, in MB (10^6 bytes).")
    var targetMB: Double = 150

    @Option(help: "Target: the idle worker's RSS at most this, in MB.")
    var idleTargetMB: Double = 60

    @Option(name: .customLong("setting"), help: "A setting of the measured side (key=value; repeat).")
    var settings: [String] = []

    @Option(name: .customLong("peer-setting"), help: "A setting of the peer side (key=value; repeat); default: librdkafka's defaults.")
    var peerSettings: [String] = MemorySide.librdkafkaDefaults

    @Flag(help: "Measure only the worker's side, no peer.")
    var noPeer = false

    func validate() throws {
        guard queued >= inFlight, inFlight > 0 else { throw ValidationError("--queued must be at least --in-flight, which must be positive") }
        guard partitions >= 0 else { throw ValidationError("--partitions must not be negative") }
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-memory")
        defer { work.remove() }
        let sides = [MemorySide(name: "worker defaults", settings: settings)]
            + (noPeer ? [] : [MemorySide(name: "librdkafka defaults (peer)", settings: peerSettings)])
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        var results: [String: [MemoryRun]] = [:]
        do {
            let backlog = try await MemoryBacklog.publish(
                queued, partitions: partitions, layerURL: serverURL + "/LA_County_Parcels/FeatureServer/0", rig: rig)
            output("worker-benchmark memory: \(backlog.description); then one worker (max-in-flight \(inFlight)) runs "
                + "\(inFlight) of them (all delayed at the server); \(common.repetitions) runs per side; worker CPUs: "
                + "\(common.pinning ?? "unpinned")")
            for side in sides { output("side '\(side.name)': \(side.settings.isEmpty ? "no settings" : side.settings.joined(separator: " "))") }
            for repetition in 0..<common.repetitions {
                for side in repetition % 2 == 0 ? sides : sides.reversed() {
                    let run = try await measure(side, backlog: backlog, repetition: repetition, rig: rig, work: work)
                    output("run \(repetition + 1), \(side.name): " + run.summary(inFlight: inFlight))
                    results[side.name, default: []].append(run)
                }
            }
        } catch {
            await rig.shutdown()
            throw error
        }
        await rig.shutdown()
        let passed = MemoryRun.printTable(
            sides.map { ($0.name, results[$0.name] ?? []) }, queued: queued, inFlight: inFlight, targetMB: targetMB,
            idleTargetMB: idleTargetMB, server: serverPID.map { (ProcessStats.peakRSSKiB(pid: $0), ProcessStats.rssKiB(pid: $0)) })
        if common.strict && !passed { throw ExitCode(1) }
    }

    /// One run of each kind for a side: idle on an empty topic, then loaded on the backlog.
    private func measure(_ side: MemorySide, backlog: MemoryBacklog, repetition: Int, rig: KafkaRig, work: WorkDirectory) async throws -> MemoryRun {
        let name = "mem\(repetition)-\(UUID().uuidString.prefix(6))"
        let idleTopics = try rig.makeTopics(name + "-idle", requestPartitions: backlog.partitions)
        let idle = try await runWorker(side, topics: idleTopics, group: name + "-idle", work: work, rig: rig) { worker, _ in
            try await Task.sleep(for: .seconds(idleSeconds))
            try worker.checkAlive("while idle")
        }
        var run = MemoryRun(idle: idle.figures)
        let loaded = try await runWorker(side, topics: backlog.topics, group: name, work: work, rig: rig) { worker, log in
            try await log.wait(for: inFlight, message: "started", timeout: .seconds(300)) { try worker.checkAlive("while starting requests") }
            try await Task.sleep(for: .seconds(settleSeconds))
            try worker.checkAlive("while requests were in flight")
            let answered = log.count(message: "succeeded") + log.count(message: "failed")
            guard answered == 0 else { throw BenchmarkError("\(answered) requests finished: the server does not delay queries") }
            let started = log.count(message: "started")
            guard started == inFlight else { throw BenchmarkError("\(started) requests started, not max-in-flight (\(inFlight))") }
        }
        run.loaded = loaded.figures
        run.maps = loaded.maps
        run.threads = loaded.threads
        return run
    }

    /// Starts a worker in `group` on `topics`, waits until it is assigned, runs `body`, reads its figures and
    /// stops it.
    private func runWorker(
        _ side: MemorySide, topics: BenchmarkTopics, group: String, work: WorkDirectory, rig: KafkaRig,
        _ body: (WorkerChild, WorkerLog) async throws -> Void
    ) async throws -> (figures: MemoryFigures, maps: MemoryMaps?, threads: Int?) {
        let worker = try WorkerChild(WorkerChild.Configuration(
            queryWorker: common.queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(group)", topics: topics,
            maxInFlight: inFlight, cpus: common.pinning, logFile: "\(work.path)/\(group).log", extraSettings: side.settings))
        let log = WorkerLog(path: worker.logFile)
        do {
            try await log.wait(for: 1, message: "partitions assigned", timeout: .seconds(60)) { try worker.checkAlive("at start") }
            try await body(worker, log)
            let figures = MemoryFigures(
                peakKiB: ProcessStats.peakRSSKiB(pid: worker.pid) ?? 0, rssKiB: ProcessStats.rssKiB(pid: worker.pid) ?? 0)
            let result = (figures, MemoryMaps.read(pid: worker.pid), threadCount(pid: worker.pid))
            await worker.stop()
            return result
        } catch {
            await worker.stop()
            throw error
        }
    }
}

/// One configuration measured: a name for the tables and the worker settings it runs with.
struct MemorySide {
    var name: String
    var settings: [String]

    /// librdkafka's own defaults for the consumer's prefetch and the producer's queue, which the worker ran on
    /// librdkafka's defaults: up to 100,000 messages or 64 MiB prefetched, 100,000 messages or 256 MiB queued.
    static let librdkafkaDefaults = [
        "kafka.queued.min.messages=100000", "kafka.queued.max.messages.kbytes=65536",
        "kafka.queue.buffering.max.messages=100000", "kafka.queue.buffering.max.kbytes=262144",
    ]
}
