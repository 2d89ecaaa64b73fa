import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import Foundation
import Logging
import SampleFeatureServer

/// `latency`: supersession and request → outcome seen from outside, on the
/// embedded cluster with the README's commands, and `query --wait`'s time to print.
struct LatencyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Outside-in supersession and request → outcome on the README's embedded setup; query --wait's time to print.",
        discussion: """
            Each side starts `query-worker embedded-kafka` (the README's topics) and `query-worker run \
            --bootstrap-servers B --allowed-hosts 127.0.0.1` as child processes, nothing else set. The peer \
            side adds `--fetch-wait-max 500ms`: librdkafka's default, which the worker used before it \
            recognized the embedded cluster. The sample server runs in this process: queries of the legacy \
            layer are held 600 s, parcels queries answered after --server-latency-ms (the server's own time).

            A pair: request A (legacy layer, task T) is published; once the server sees A's query, request B \
            (a parcels count, task T) is published. Supersession = A's `superseded` outcome's Kafka timestamp \
            minus B's. Then request C (the same count, a task of its own, superseding nothing): request → \
            outcome above the server = C's outcome's timestamp minus C's minus the server's time for C's \
            queries (each held --server-latency-ms; their computing is counted as the worker's). Requests are published with linger 0, as an interactive client would; all \
            timestamps are Kafka's (CreateTime, whole milliseconds, one machine's clock).

            query --wait (README side only): `query-worker query --bootstrap-servers B --wait` for a parcels \
            count, each a new process; from the outcome's Kafka timestamp to the status line read from the \
            command's standard output, and the command's whole run. --peer-query-worker runs the same with \
            another build's query (the one before this change) against the same worker.
            """)

    @OptionGroup var common: CommonOptions

    @Option(help: "Measured pairs per run on the README side.")
    var pairs: Int = 200

    @Option(help: "Measured pairs per run on the peer side (each takes about a second there).")
    var peerPairs: Int = 30

    @Option(help: "Pairs left out at the start of each run (connections, metadata).")
    var warmups: Int = 5

    @Option(help: "query --wait commands per run.")
    var queries: Int = 15

    @Option(help: "The server's own time per parcels query, in milliseconds (a latency fault).")
    var serverLatencyMs: Int = 20

    @Option(help: "Parcels of the in-process sample server.")
    var parcels: Int = 100_000

    @Option(help: "Another build's query-worker for the peer of query --wait (empty: none).")
    var peerQueryWorker: String = ""

    func validate() throws {
        guard pairs > 0, peerPairs > 0, warmups >= 0, queries >= 0 else { throw ValidationError("counts must be positive") }
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-latency")
        defer { work.remove() }
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: parcels, seed: 1,
                faults: [
                    FaultRule(.latency(milliseconds: 600_000), pathContains: SampleLayer.legacyParcels.path + "/query"),
                    FaultRule(.latency(milliseconds: serverLatencyMs), pathContains: SampleLayer.parcels.path + "/query"),
                ],
                recentRequestLimit: 256),
            logger: logger)
        output("worker-benchmark latency: \(pairs) pairs (peer \(peerPairs); +\(warmups) warm-up) and \(queries) query --wait "
            + "per run, \(common.repetitions) runs, sides alternating; server time \(serverLatencyMs) ms per parcels query")
        var results = LatencyResults()
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        do {
            for repetition in 0..<common.repetitions {
                for side in repetition % 2 == 0 ? [LatencySide.readme, .peer] : [.peer, .readme] {
                    let run = try await measure(side, repetition: repetition, server: server, client: client, work: work, logger: logger)
                    output("run \(repetition + 1): \(side.rawValue): " + run.summary)
                    results.append(run, side: side)
                }
            }
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
        let passed = results.printTable(repetitions: common.repetitions)
        if common.strict && !passed { throw ExitCode(1) }
    }

    private func measure(
        _ side: LatencySide, repetition: Int, server: SampleFeatureServer, client: HTTPClient, work: WorkDirectory, logger: Logger
    ) async throws -> LatencyRun {
        let name = "\(side == .readme ? "readme" : "peer")-\(repetition)"
        let stack = try await LatencyStack.start(
            queryWorker: common.queryWorker, runArguments: side == .peer ? ["--fetch-wait-max", "500ms"] : [],
            logFile: "\(work.path)/\(name).log", logger: logger)
        do {
            var run = LatencyRun()
            var watch = server.statistics.recentRequests.last?.sequence ?? 0
            let count = (side == .readme ? pairs : peerPairs) + warmups
            for index in 0..<count {
                let sample = try await pair(
                    "\(name)-\(index)", seed: UInt64(repetition * 10_000 + index), stack: stack, server: server, client: client,
                    watch: &watch)
                if index >= warmups { run.add(sample) }
            }
            if side == .readme {
                for index in 0..<queries {
                    run.query.append(try await queryWait(common.queryWorker, "\(name)-q\(index)", stack: stack, server: server))
                    if !peerQueryWorker.isEmpty {
                        run.peerQuery.append(try await queryWait(peerQueryWorker, "\(name)-p\(index)", stack: stack, server: server))
                    }
                }
            }
            await stack.stop()
            return run
        } catch {
            await stack.stop()
            throw error
        }
    }

    private func pair(
        _ name: String, seed: UInt64, stack: LatencyStack, server: SampleFeatureServer, client: HTTPClient, watch: inout Int
    ) async throws -> PairSample {
        let task = "task-\(name)"
        let spec = RequestFactory.specs(count: 1, seed: seed)[0]
        let held = QuerySpec(whereClause: "1=1", xmin: spec.xmin, ymin: spec.ymin, xmax: spec.xmax, ymax: spec.ymax)
        let older = RequestFactory.requestJSON(
            requestId: "\(name)-a", taskId: task, layerURL: server.layerURL(.legacyParcels), held, result: "count")
        let newer = RequestFactory.requestJSON(
            requestId: "\(name)-b", taskId: task, layerURL: server.layerURL(.parcels), spec, result: "count")
        try await stack.publish(key: task, value: older)
        watch = try await Self.heldQuery(after: watch, server: server)
        try await stack.publish(key: task, value: newer)
        let stamps = try await stack.stamps(of: ["\(name)-a", "\(name)-b"])
        guard stamps[0].status == "superseded", stamps[1].status == "succeeded",
            let olderOutcome = stamps[0].outcomeMs, let newerRequest = stamps[1].requestMs
        else { throw BenchmarkError("pair \(name): expected superseded and succeeded, got \(stamps)") }
        // Request → outcome on a request of its own task, which supersedes nothing: B's outcome also waits
        // for A's cancellation.
        let alone = RequestFactory.requestJSON(
            requestId: "\(name)-c", taskId: "\(task)-c", layerURL: server.layerURL(.parcels), spec, result: "count")
        let beforeAlone = server.statistics.recentRequests.last?.sequence ?? watch
        try await stack.publish(key: "\(task)-c", value: alone)
        let aloneStamps = try await stack.stamps(of: ["\(name)-c"])[0]
        let serverMs = Self.serverTimeMs(after: beforeAlone, server: server, latencyMs: serverLatencyMs)
        guard aloneStamps.status == "succeeded", let aloneRequest = aloneStamps.requestMs, let aloneOutcome = aloneStamps.outcomeMs
        else { throw BenchmarkError("request \(name)-c: expected succeeded, got \(aloneStamps)") }
        let directMs = try await Self.directServerMs(after: beforeAlone, server: server, client: client)
        return PairSample(
            supersessionMs: Double(olderOutcome - newerRequest),
            aboveServerMs: Double(aloneOutcome - aloneRequest) - serverMs.milliseconds, serverQueries: serverMs.queries,
            aboveDirectMs: Double(aloneOutcome - aloneRequest) - directMs)
    }

    private func queryWait(_ queryWorker: String, _ requestId: String, stack: LatencyStack, server: SampleFeatureServer) async throws -> QuerySample {
        let started = ContinuousClock.now
        let child = try LatencyChild([
            queryWorker, "query", "--bootstrap-servers", stack.bootstrap, "--wait", "--request-id", requestId,
            "--target", server.layerURL(.parcels), "--where", "1=1", "--extent", "-118.8373,34.0121,-118.7727,34.0479",
            "--result", "count",
        ])
        guard let printed = await child.line(timeout: .seconds(60), where: { $0.hasPrefix("succeeded") }) else {
            await child.stop()
            throw BenchmarkError("query --wait \(requestId) printed no outcome")
        }
        let status = await child.waitForExit(timeout: .seconds(30))
        let ended = ContinuousClock.now
        guard status == 0 else { throw BenchmarkError("query --wait \(requestId) exited with \(String(describing: status))") }
        let stamps = try await stack.stamps(of: [requestId])
        guard let requestMs = stamps[0].requestMs, let outcomeMs = stamps[0].outcomeMs else { throw BenchmarkError("no stamps for \(requestId)") }
        return QuerySample(
            outcomeToPrintedMs: printed.readAtMs - Double(outcomeMs), requestToPrintedMs: printed.readAtMs - Double(requestMs),
            commandMs: (ended - started).milliseconds)
    }

    /// The server's own time for the newer request: the union of its parcels queries' intervals (each held
    /// `latencyMs` from its arrival; the count's computing, well under a millisecond, is left to the worker's
    /// side), so two queries one after the other count twice and two at once count once.
    static func serverTimeMs(after sequence: Int, server: SampleFeatureServer, latencyMs: Int) -> (milliseconds: Double, queries: Int) {
        let arrivals = server.statistics.recentRequests
            .filter { $0.sequence > sequence && $0.isQuery && $0.layer == .parcels }
            .compactMap(\.receivedAt).sorted()
        let length = Duration.milliseconds(latencyMs)
        var total = Duration.zero
        var covered: ContinuousClock.Instant?
        for start in arrivals {
            let end = start + length
            if let reached = covered, reached > start {
                if end > reached { total += end - reached }
            } else {
                total += length
            }
            covered = max(covered ?? end, end)
        }
        return (total.milliseconds, arrivals.count)
    }

    /// The server's own time for the worker's first parcels query after `sequence`, seen from outside: the
    /// same request (path and parameters as the server recorded them) sent again from here over loopback,
    /// timed from send to the whole answer. It includes the fault's timer overshoot and the count's computing,
    /// which the fault's length leaves out.
    static func directServerMs(after sequence: Int, server: SampleFeatureServer, client: HTTPClient) async throws -> Double {
        guard let record = server.statistics.recentRequests.first(where: { $0.sequence > sequence && $0.isQuery && $0.layer == .parcels }),
            let root = server.baseURL.range(of: "/arcgis/rest/services").map({ String(server.baseURL[..<$0.lowerBound]) })
        else { throw BenchmarkError("the server recorded no parcels query to replay") }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        let query = record.parameters.map { "\(encoded($0.name))=\(encoded($0.value))" }.joined(separator: "&")
        let started = ContinuousClock.now
        let response = try await client.execute(HTTPRequest(url: root + record.path + "?" + query))
        let elapsed = ContinuousClock.now - started
        guard response.status == 200 else { throw BenchmarkError("the replayed query answered \(response.status)") }
        return elapsed.milliseconds
    }

    /// Waits until the server sees a query of the held (legacy) layer after sequence `last`; returns its sequence.
    static func heldQuery(after last: Int, server: SampleFeatureServer) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let seen = server.statistics.recentRequests.first { $0.sequence > last && $0.isQuery && $0.layer == .legacyParcels }
            if let seen { return seen.sequence }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw BenchmarkError("the server saw no query of the held layer within 30 s")
    }
}
