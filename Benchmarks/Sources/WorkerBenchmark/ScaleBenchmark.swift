import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `scale`: total requests/s of 1, 2 and 3 workers in one consumer group, and how evenly
/// the partitions and the load spread over them.
struct ScaleBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Requests/s of 1, 2, 3 query-worker processes in one group, and the spread of partitions and outcomes.",
        discussion: """
            For each worker count, each repetition: fresh `query-worker run` processes join one group on a \
            fresh request topic of --partitions partitions of the mock cluster in this process; once each \
            has been assigned partitions and --settle-ms have passed (later joins rebalance the group), \
            --requests count queries are published, spread in turn over the --server-url servers (several \
            sample server processes, so that one server is not the limit), and this process reads the \
            outcomes. Rate over the steady state (after the first tenth); each worker's outcomes and the \
            partitions they came from are read from its log. Every outcome must be `succeeded`.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .customLong("server-url"), help: "A sample server's services URL (repeatable; requests go to each in turn).")
    var serverURLs: [String]

    @Option(name: .customLong("server-pid"), help: "A sample server's process id, for its CPU time (repeatable).")
    var serverPIDs: [Int32] = []

    @Option(help: "Worker counts to measure, comma-separated.")
    var workers: String = "1,2,3"

    @Option(help: "Partitions of the request topic.")
    var partitions: Int = 12

    @Option(help: "count requests per run.")
    var requests: Int = 20_000

    @Option(help: "Each worker's max-in-flight (and HTTP connections per server host).")
    var maxInFlight: Int = 64

    @Option(help: "Milliseconds to let the group settle after every worker has partitions, before publishing.")
    var settleMs: Int = 3_000

    func validate() throws {
        guard !serverURLs.isEmpty else { throw ValidationError("give at least one --server-url") }
        guard requests >= 20, partitions >= 1 else { throw ValidationError("--requests >= 20 and --partitions >= 1") }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else { throw ValidationError("--workers: positive counts, e.g. 1,2,3") }
    }

    private var counts: [Int] { workers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-scale")
        defer { work.remove() }
        let layers = serverURLs.map { $0 + "/LA_County_Parcels/FeatureServer/0" }
        let workload = CPUWorkload(.count, requests: requests)
        output("worker-benchmark scale: \(requests) count queries per run (\(workload.summary)) spread over "
            + "\(layers.count) server\(layers.count == 1 ? "" : "s"); \(partitions) partitions; workers \(counts); "
            + "max-in-flight \(maxInFlight) each; \(common.repetitions) repetitions; worker CPUs: \(common.pinning ?? "unpinned")")
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        var results: [Int: [ScaleRun.Figures]] = [:]
        do {
            for repetition in 0..<common.repetitions {
                for count in counts {
                    let name = "scale\(count)-\(repetition)-\(UUID().uuidString.prefix(6))"
                    let messages = workload.messages(layerURLs: layers, run: name)
                    let run = ScaleRun(
                        rig: rig, messages: messages, skip: workload.skip, partitions: partitions, maxInFlight: maxInFlight,
                        queryWorker: common.queryWorker, cpus: common.pinning, serverPIDs: serverPIDs,
                        settle: .milliseconds(settleMs), workDirectory: work.path, logger: logger)
                    let figures = try await run.run(name, workers: count)
                    results[count, default: []].append(figures)
                    output("  run \(repetition + 1), \(count) worker\(count == 1 ? "" : "s"): \(format(figures.requestsPerSecond, 0)) requests/s; "
                        + "outcomes per worker \(figures.outcomes); partitions per worker \(figures.partitions); workers' CPU "
                        + "\(format(figures.workerCPUMicroseconds, 0)) µs/request; servers' CPU "
                        + "\(figures.serverCPUMicroseconds.map { format($0, 0) } ?? "-") µs/request")
                }
            }
        } catch {
            await rig.shutdown()
            throw error
        }
        await rig.shutdown()
        printTable(results)
    }

    private func printTable(_ results: [Int: [ScaleRun.Figures]]) {
        output("")
        output("Scale-out, median of \(common.repetitions) run\(common.repetitions == 1 ? "" : "s") (spread: the median run's)")
        let header = [
            "workers".leftPadding(7), "requests/s".leftPadding(10), "x 1 worker".leftPadding(10),
            "workers' CPU µs/req".leftPadding(19), "servers' CPU µs/req".leftPadding(19), "partitions per worker".padding(21),
            "outcomes per worker",
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        let single = median((results[counts[0]] ?? []).map(\.requestsPerSecond))
        for count in counts {
            let runs = results[count] ?? []
            let rate = median(runs.map(\.requestsPerSecond))
            let sorted = runs.sorted { $0.requestsPerSecond < $1.requestsPerSecond }
            guard !sorted.isEmpty else { continue }
            let middle = sorted[sorted.count / 2]
            let servers = runs.compactMap(\.serverCPUMicroseconds)
            output([
                String(count).leftPadding(7), format(rate, 0).leftPadding(10),
                format(single > 0 ? rate / single : 0, 2).leftPadding(10),
                format(median(runs.map(\.workerCPUMicroseconds)), 0).leftPadding(19),
                (servers.isEmpty ? "-" : format(median(servers), 0)).leftPadding(19),
                "\(middle.partitions)".padding(21), "\(middle.outcomes)",
            ].joined(separator: " | "))
        }
    }
}
