import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `cpu`: the worker's CPU time per request against a plain Python worker's (aiokafka + aiohttp,
/// `Benchmarks/python/peer_worker.py`) on the same queued requests, for `count`, `ids` and `features`
/// queries, and against the C floor (`Benchmarks/c/floor_worker.c`, the same three kinds): what librdkafka and
/// libcurl cost per request under the leanest C program, the least any worker built on them can spend. Every
/// side's outcomes must answer every request as the worker's do (``OutcomeDigest``).
struct CPUBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cpu",
        abstract: "CPU µs/request and requests/s of query-worker against a Python peer (count, ids, features).",
        discussion: """
            For each kind, each repetition: the kind's requests are queued on a fresh 3-partition request \
            topic of the mock cluster in this process, then a fresh `query-worker run` works through them \
            while this process reads the outcomes; then the same for a fresh Python peer on its own fresh \
            topics, and the same for the C floor when --floor-worker is given (the order of the \
            sides rotates between repetitions). All run at --max-in-flight with as many HTTP connections to \
            the server, log one JSON line per state change at info to a file and commit offsets. Figures over the steady state (after the first tenth of the outcomes): \
            requests/s, the worker's CPU (utime+stime of the process) per request, the server's and this \
            driver's (mock cluster + reader). Every outcome must be `succeeded`, and once a run is over its \
            outcomes are checked (count, complete, incompleteReason, objectIds ascending, the GeoJSON features' \
            ids, geometry and properties) against the worker's first run's, request by request. Give it a sample server \
            with 200,000 parcels (the selections are sized for it).
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The sample server's services URL (http://127.0.0.1:PORT/arcgis/rest/services).")
    var serverURL: String

    @Option(help: "The sample server's process id, for its CPU time.")
    var serverPID: Int32?

    @Option(help: "The Python interpreter with aiokafka and aiohttp (the repository's .venv).")
    var python: String

    @Option(help: "The peer's script (Benchmarks/python/peer_worker.py).")
    var peerScript: String

    @Option(help: "The compiled C floor (Benchmarks/bin/floor_worker, built by run-worker-benchmark.sh): count, ids and features.")
    var floorWorker: String?

    @Option(help: """
        The sides to run, comma-separated: worker, peer, floor, metrics, tracing. Default: worker and peer, and \
        floor when --floor-worker is given. The verdict needs worker and peer. \
        metrics: the worker with --ops-port, its /metrics scraped every --scrape-interval; tracing: the worker \
        with --otlp-endpoint; each is printed against the plain worker.
        """)
    var sides: String?

    @Option(help: "The metrics side's ops port (a free loopback port).")
    var opsPort: Int = 19391

    @Option(help: "How often the metrics side's /metrics is scraped, in seconds (Prometheus' default is 15 s).")
    var scrapeInterval: Double = 1

    @Option(help: "The tracing side's OTLP/HTTP endpoint (Benchmarks/python/otlp_sink.py; run-worker-benchmark.sh starts one).")
    var otlpEndpoint: String?

    @Option(help: """
        The kinds to measure, comma-separated: count, ids, features. ids is not in the default: the peer's \
        outcomes (~150 kB each) overran the mock cluster's results partitions (it keeps about the last 5 MiB of \
        each) before the reader had them on a loaded machine, and the run waits for outcomes that are gone.
        """)
    var kinds: String = "count,features"

    @Option(help: "Requests per run for count.")
    var countRequests: Int = CPUWorkload.defaultRequests(.count)

    @Option(help: "Requests per run for ids.")
    var idsRequests: Int = CPUWorkload.defaultRequests(.ids)

    @Option(help: "Requests per run for features.")
    var featuresRequests: Int = CPUWorkload.defaultRequests(.features)

    @Option(help: """
        Partitions of the results topic; default: 1 for count, 3 for ids and features, whose larger outcomes \
        would overrun one partition of the mock cluster (it keeps about the last 5 MiB of each).
        """)
    var resultsPartitions: Int?

    @Option(help: "The sides' max-in-flight (and HTTP connections to the server).")
    var maxInFlight: Int = 64

    @Option(help: """
        perf events to count per request in each side's process over the steady state, comma-separated (perf \
        stat -e): context-switches, raw_syscalls:sys_enter, and the uprobes Benchmarks/perf-probes.sh defines \
        (probe_libc:malloc, probe_libswiftCore:swift_retain, ...). Counts are steady where CPU times are not; \
        uprobes slow the counted process, so a counted run's CPU figures are not comparable with others'.
        """)
    var events: String?

    @Option(help: "Target for count: peer CPU per request / the worker's at least this.")
    var targetCPURatio: Double = 8

    @Option(help: "Target for count: the worker's requests/s / the peer's at least this.")
    var targetThroughputRatio: Double = 1

    func validate() throws {
        guard countRequests >= 20, idsRequests >= 20, featuresRequests >= 20 else {
            throw ValidationError("every kind needs at least 20 requests per run")
        }
        for name in kinds.split(separator: ",") where CPUWorkload.Kind(rawValue: name.trimmingCharacters(in: .whitespaces)) == nil {
            throw ValidationError("unknown kind \(name): count, ids or features")
        }
        for name in (sides ?? "").split(separator: ",") where CPUResults.Side(rawValue: name.trimmingCharacters(in: .whitespaces)) == nil {
            throw ValidationError("unknown side \(name): worker, peer, floor, metrics or tracing")
        }
        guard !chosenSides.isEmpty else { throw ValidationError("--sides names no side") }
        if chosenSides.contains(.floor), floorWorker == nil { throw ValidationError("the floor side needs --floor-worker") }
        if chosenSides.contains(.tracing), otlpEndpoint == nil { throw ValidationError("the tracing side needs --otlp-endpoint") }
    }

    /// The sides to run, in `CPUResults.Side` order (rotated per repetition).
    private var chosenSides: [CPUResults.Side] {
        guard let sides else { return floorWorker == nil ? [.worker, .peer] : [.worker, .peer, .floor] }
        let named = Set(sides.split(separator: ",").compactMap { CPUResults.Side(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
        return CPUResults.Side.allCases.filter(named.contains)
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-cpu")
        defer { work.remove() }
        let layerURL = serverURL + "/LA_County_Parcels/FeatureServer/0"
        let chosen = kinds.split(separator: ",").compactMap { CPUWorkload.Kind(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        output("worker-benchmark cpu: sides \(chosenSides.map(\.label).joined(separator: ", ")) (peer: \(peerScript); "
            + "floor: \(floorWorker ?? "-")) on \(layerURL); "
            + "max-in-flight \(maxInFlight); \(common.repetitions) repetitions, sides rotating, fresh process per run; "
            + "worker CPUs: \(common.pinning ?? "unpinned")")
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        var results: [CPUResults] = []
        do {
            for kind in chosen {
                let requests = switch kind {
                case .count: countRequests
                case .ids: idsRequests
                case .features: featuresRequests
                }
                results.append(try await measure(CPUWorkload(kind, requests: requests), rig: rig, layerURL: layerURL, work: work, logger: logger))
            }
        } catch {
            await rig.shutdown()
            throw error
        }
        await rig.shutdown()
        output("")
        output("CPU per request, median of \(common.repetitions) run\(common.repetitions == 1 ? "" : "s") per side")
        CPUResults.printTable(results, cpuTarget: targetCPURatio, throughputTarget: targetThroughputRatio)
        let passed = results.allSatisfy {
            !$0.measured(.worker) || !$0.measured(.peer) || $0.verdict(cpuRatio: targetCPURatio, throughputRatio: targetThroughputRatio)
        }
        if common.strict && !passed { throw ExitCode(1) }
    }

    private func measure(
        _ workload: CPUWorkload, rig: KafkaRig, layerURL: String, work: WorkDirectory, logger: Logger
    ) async throws -> CPUResults {
        output("\(workload.kind.rawValue): \(workload.requests) requests per run (\(workload.summary))")
        var results = CPUResults(kind: workload.kind)
        let sides = chosenSides
        for repetition in 0..<common.repetitions {
            for index in sides.indices {
                let side = sides[(index + repetition) % sides.count]
                let name = "cpu-\(workload.kind.rawValue)-\(side.rawValue)\(repetition)-\(UUID().uuidString.prefix(6))"
                let run = CPURun(
                    rig: rig, kind: workload.kind, messages: workload.messages(layerURLs: [layerURL], run: name),
                    skip: workload.skip, serverPID: serverPID, resultsPartitions: resultsPartitions ?? (workload.kind == .count ? 1 : 3),
                    counting: countedEvents.isEmpty ? nil : (countedEvents, work.path), logger: logger)
                let figures = try await run.run(name) { topics, group in
                    try start(side, topics: topics, group: group, logFile: "\(work.path)/\(name).log", rig: rig)
                }
                results.runs[side, default: []].append(figures)
                output("  run \(repetition + 1) \(side.label): \(format(figures.requestsPerSecond, 0)) requests/s, "
                    + "worker CPU \(format(figures.workerCPUMicroseconds, 0)) µs/request, server CPU "
                    + "\(figures.serverCPUMicroseconds.map { format($0, 0) } ?? "-") µs/request, Kafka (mock cluster + reader) "
                    + "\(format(figures.kafkaCPUMicroseconds, 0)) µs/request, outcome \(format(figures.outcomeBytes, 0)) bytes"
                    + countedNote)
            }
        }
        if !countedEvents.isEmpty { printEventCounts(results, sides: sides) }
        let reference = try results.checkAgreement()
        output("  outcomes: every run of every side answered each of the \(workload.requests) requests as \(reference) did "
            + "(count, complete, incompleteReason, objectIds, GeoJSON features)")
        return results
    }

    /// What a run's line says of its counting: uprobes trap on every hit and inflate the CPU figures;
    /// the kernel's own counters and tracepoints barely move them.
    private var countedNote: String {
        if countedEvents.isEmpty { return "" }
        return countedEvents.contains { $0.hasPrefix("probe_") } ? " [counted with uprobes: CPU inflated]" : " [counted]"
    }

    /// The `--events` list.
    private var countedEvents: [String] {
        (events ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Each counted event per request, the median of each side's runs, and each side against the first's.
    private func printEventCounts(_ results: CPUResults, sides: [CPUResults.Side]) {
        output("  events per request (median of the runs; perf stat over the steady state):")
        for event in countedEvents {
            let medians = sides.map { side in
                let values = (results.runs[side] ?? []).compactMap { $0.eventsPerRequest[event] }
                return values.isEmpty ? nil : median(values)
            }
            let figures = zip(sides, medians).map { side, value in
                guard let value else { return "\(side.label) -" }
                guard side != sides[0], let reference = medians[0], value > 0 else { return "\(side.label) \(format(value, 1))" }
                return "\(side.label) \(format(value, 1)) (\(sides[0].label) / this \(format(reference / value, 2))x)"
            }
            output("    \(event): " + figures.joined(separator: "; "))
        }
    }

    private func start(
        _ side: CPUResults.Side, topics: BenchmarkTopics, group: String, logFile: String, rig: KafkaRig
    ) throws -> any MeasuredWorker {
        func worker(_ arguments: [String]) throws -> WorkerChild {
            try WorkerChild(WorkerChild.Configuration(
                queryWorker: common.queryWorker, bootstrapServers: rig.bootstrapServers, groupID: group, topics: topics,
                maxInFlight: maxInFlight, cpus: common.pinning, logFile: logFile,
                // As many HTTP requests in flight to the server as the peer's aiohttp connection limit.
                extraSettings: ["maxRequestsPerHost=\(maxInFlight)"], extraArguments: arguments))
        }
        switch side {
        case .worker:
            return try worker([])
        case .metrics:
            let scraped = ScrapedWorker(try worker(["--ops-port", String(opsPort)]), port: opsPort)
            scraped.startScraping(every: .milliseconds(Int(scrapeInterval * 1000)))
            return scraped
        case .tracing:
            guard let otlpEndpoint else { throw BenchmarkError("the tracing side needs --otlp-endpoint") }
            return try worker(["--otlp-endpoint", otlpEndpoint])
        case .peer:
            return try PeerChild(PeerChild.Configuration(
                program: .python(interpreter: python, script: peerScript), bootstrapServers: rig.bootstrapServers, groupID: group, topics: topics,
                maxInFlight: maxInFlight, cpus: common.pinning, logFile: logFile))
        case .floor:
            guard let floorWorker else { throw BenchmarkError("the floor side needs --floor-worker") }
            return try PeerChild(PeerChild.Configuration(
                program: .floor(executable: floorWorker), bootstrapServers: rig.bootstrapServers, groupID: group, topics: topics,
                maxInFlight: maxInFlight, cpus: common.pinning, logFile: logFile))
        }
    }
}
