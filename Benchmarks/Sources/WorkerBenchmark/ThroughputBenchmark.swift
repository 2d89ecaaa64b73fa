import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `throughput`: requests per second through the worker (published → queried → outcome read back) at a
/// fixed max-in-flight, against the rate wrk gets from the same server for the same query requests.
struct ThroughputBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "throughput",
        abstract: "Requests/s through the worker against wrk replaying the same ids+count query pairs.",
        discussion: """
            Worker side: --requests ids queries (a where clause and a 200 m envelope each, all different) are \
            queued on a fresh 3-partition request topic of the mock cluster in this process; then a fresh \
            `query-worker run` (max-in-flight --max-in-flight) works through them while this process reads \
            the outcomes. Rate: outcomes after the first --skip, over the time from outcome --skip to the last. \
            Every outcome must be `succeeded`.

            wrk side: the engine sends two HTTP requests per ids query, returnIdsOnly and returnCountOnly. \
            They are captured from the engine (against an in-process sample server) for the first \
            --wrk-queries queries, and wrk (one thread, --wrk-connections connections) replays them in turn, \
            ids then count; one pair of responses counts as one worker request. The worker's engine sends \
            the two at once on two connections and at most 16 requests to a host at a time (its per-host \
            limit), wrk sends them one after the other on each connection; the server does the same work \
            per pair either way.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The sample server's services URL (http://127.0.0.1:PORT/arcgis/rest/services).")
    var serverURL: String

    @Option(help: "The sample server's process id, for its CPU time and peak RSS.")
    var serverPID: Int32?

    @Option(help: "Requests queued for each worker run.")
    var requests: Int = 20_000

    @Option(help: "What each request asks for: ids (two HTTP requests per query) or count (one).")
    var result: String = "ids"

    @Option(help: "Outcomes left out of the rate at the start (joining, connections, metadata).")
    var skip: Int = 1_000

    @Option(help: "The worker's max-in-flight.")
    var maxInFlight: Int = 64

    @Option(name: .customLong("worker-setting"), help: "A further `--set key=value` for the worker (repeatable).")
    var workerSettings: [String] = []

    @Option(help: "The wrk executable.")
    var wrk: String = "/usr/bin/wrk"

    @Option(help: "wrk's connections (the target's reference).")
    var wrkConnections: Int = 64

    @Option(help: "Further wrk connection counts, for information (comma-separated; empty for none).")
    var wrkInfoConnections: String = "16"

    @Option(help: "Seconds per wrk run.")
    var wrkSeconds: Int = 10

    @Option(help: "How many of the queries wrk replays (their URL pairs, in turn).")
    var wrkQueries: Int = 2_000

    @Option(help: "The sides to run, comma-separated: worker, wrk, engine (the raw engine, for information).")
    var sides: String = "worker,wrk,engine"

    @Option(help: "Target: worker requests/s at least this fraction of wrk's pairs/s.")
    var targetRatio: Double = 0.8

    func validate() throws {
        guard requests > skip + 1, skip >= 1 else { throw ValidationError("--requests must exceed --skip + 1, --skip >= 1") }
        guard wrkQueries >= 1, wrkQueries <= requests else { throw ValidationError("--wrk-queries must be 1...--requests") }
        guard result == "ids" || result == "count" else { throw ValidationError("--result takes ids or count") }
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-throughput")
        defer { work.remove() }
        let layerURL = serverURL + "/LA_County_Parcels/FeatureServer/0"
        guard let root = serverURL.range(of: "/arcgis/rest/services").map({ String(serverURL[..<$0.lowerBound]) }) else {
            throw ValidationError("--server-url must end in /arcgis/rest/services")
        }
        let specs = RequestFactory.specs(count: requests)
        let messages = specs.enumerated().map { index, spec in
            let id = "tp-\(index)"
            return (key: id, value: RequestFactory.requestJSON(requestId: id, taskId: id, layerURL: layerURL, spec, result: result))
        }
        output("worker-benchmark throughput: \(requests) \(result) queries (\(RequestFactory.whereClause) + a 200 m envelope, "
            + "all different) on \(layerURL); worker max-in-flight \(maxInFlight); \(common.repetitions) repetitions, "
            + "sides alternating; worker CPUs: \(common.pinning ?? "unpinned")")
        let pairs = try await QueryURLCapture.capture(Array(specs.prefix(wrkQueries)), logger: logger)
        output("  wrk replays the engine's requests for the first \(pairs.count) queries (captured), e.g.:")
        output("    \(pairs[0].ids)")
        output("    \(pairs[0].count)")
        let peer = try WrkPeer(
            executable: wrk, rootURL: root, pairs: pairs, scriptPath: work.path + "/pairs.lua", cpus: common.pinning,
            serverPID: serverPID)
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        let side = WorkerThroughputRun(
            rig: rig, messages: messages, skip: skip, maxInFlight: maxInFlight, queryWorker: common.queryWorker,
            cpus: common.pinning, serverPID: serverPID, workDirectory: work.path,
            // The same concurrency as wrk: as many HTTP requests in flight to the server as wrk has connections.
            extraSettings: ["maxRequestsPerHost=\(wrkConnections)"] + workerSettings,
            logger: logger)
        let infoConnections = wrkInfoConnections.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }

        var results = ThroughputResults(wrkConnections: wrkConnections, infoConnections: infoConnections)
        let chosen = Set(sides.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        for repetition in 0..<common.repetitions {
            let workerFirst = repetition % 2 == 0
            if workerFirst, chosen.contains("worker") { results.worker.append(try await measureWorker(side, repetition)) }
            for connections in [wrkConnections] + infoConnections where chosen.contains("wrk") {
                let run = try await peer.run(connections: connections, seconds: wrkSeconds)
                results.wrk[connections, default: []].append(run)
                output("run \(repetition + 1): wrk -c\(connections): \(format(run.pairsPerSecond, 0)) pairs/s "
                    + "(\(run.pairs) pairs in \(format(run.seconds, 2)) s), wrk CPU \(format(run.clientCPUMillisecondsPerPair, 3)) ms/pair, "
                    + "server CPU \(run.serverCPUMillisecondsPerPair.map { format($0, 3) } ?? "-") ms/pair")
            }
            if !workerFirst, chosen.contains("worker") { results.worker.append(try await measureWorker(side, repetition)) }
            guard chosen.contains("engine") else { continue }
            let engine = try await EngineThroughputRun(
                layerURL: layerURL, specs: specs, concurrency: maxInFlight, skip: skip, logger: logger).run()
            results.engine.append(engine)
            output("run \(repetition + 1): raw engine (in process, \(maxInFlight) queries at once): "
                + "\(format(engine.requestsPerSecond, 0)) queries/s, CPU \(format(engine.cpuMilliseconds, 3)) ms/query")
        }
        await rig.shutdown()
        let serverPeak = serverPID.flatMap(ProcessStats.peakRSSKiB(pid:))
        let passed = results.printTable(targetRatio: targetRatio, repetitions: common.repetitions, serverPeakKiB: serverPeak)
        if common.strict && !passed { throw ExitCode(1) }
    }

    private func measureWorker(_ side: WorkerThroughputRun, _ repetition: Int) async throws -> WorkerThroughputRun.Figures {
        let name = "tp\(repetition)-\(UUID().uuidString.prefix(6))"
        let figures = try await side.run(name)
        output("run \(repetition + 1): worker: \(format(figures.requestsPerSecond, 0)) requests/s "
            + "(\(requests - skip) outcomes after the first \(skip)), worker CPU \(format(figures.workerCPUMilliseconds, 3)) ms/request, "
            + "Kafka (mock cluster + reader) \(format(figures.kafkaCPUMilliseconds, 3)) ms/request, "
            + "server CPU \(figures.serverCPUMilliseconds.map { format($0, 3) } ?? "-") ms/request, "
            + "worker peak RSS \(format(megabytes(kib: Double(figures.workerPeakKiB)), 1)) MB")
        return figures
    }
}
