import BenchmarkSupport

/// The throughput runs of both sides, and the table of their medians.
struct ThroughputResults {
    let wrkConnections: Int
    let infoConnections: [Int]
    var worker: [WorkerThroughputRun.Figures] = []
    var wrk: [Int: [WrkPeer.Run]] = [:]
    var engine: [EngineThroughputRun.Figures] = []

    init(wrkConnections: Int, infoConnections: [Int]) {
        self.wrkConnections = wrkConnections
        self.infoConnections = infoConnections
    }

    /// Prints the medians, the ratio and the verdict; returns whether the target passed.
    func printTable(targetRatio: Double, repetitions: Int, serverPeakKiB: Int?) -> Bool {
        func cell(_ value: Double?, _ digits: Int, _ width: Int) -> String {
            (value.map { format($0, digits) } ?? "-").leftPadding(width)
        }
        output("")
        output("Throughput (ids query = returnIdsOnly + returnCountOnly), median of \(repetitions) run\(repetitions == 1 ? "" : "s")")
        let header = [
            "side".padding(40), "requests/s".leftPadding(10), "client CPU ms/req".leftPadding(17),
            "server CPU ms/req".leftPadding(17),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        let workerRate = median(worker.map(\.requestsPerSecond))
        output([
            "worker (query-worker run)".padding(40), cell(workerRate, 0, 10),
            cell(median(worker.map(\.workerCPUMilliseconds)), 3, 17),
            cell(median(worker.compactMap(\.serverCPUMilliseconds)), 3, 17),
        ].joined(separator: " | "))
        output([
            "  + Kafka: mock cluster + outcome reader".padding(40), "".leftPadding(10),
            cell(median(worker.map(\.kafkaCPUMilliseconds)), 3, 17), "".leftPadding(17),
        ].joined(separator: " | "))
        output([
            "raw engine in process (info)".padding(40), cell(median(engine.map(\.requestsPerSecond)), 0, 10),
            cell(median(engine.map(\.cpuMilliseconds)), 3, 17), "".leftPadding(17),
        ].joined(separator: " | "))
        for connections in [wrkConnections] + infoConnections {
            let runs = wrk[connections] ?? []
            let label = "wrk -c\(connections), 1 pair = 1 request" + (connections == wrkConnections ? "" : " (info)")
            output([
                label.padding(40), cell(median(runs.map(\.pairsPerSecond)), 0, 10),
                cell(median(runs.map(\.clientCPUMillisecondsPerPair)), 3, 17),
                cell(median(runs.compactMap(\.serverCPUMillisecondsPerPair)), 3, 17),
            ].joined(separator: " | "))
        }
        let reference = median((wrk[wrkConnections] ?? []).map(\.pairsPerSecond))
        let ratio = reference > 0 ? workerRate / reference : 0
        let passed = ratio >= targetRatio
        output("")
        output("worker peak RSS during the run: \(format(megabytes(kib: median(worker.map { Double($0.workerPeakKiB) })), 1)) MB"
            + (serverPeakKiB.map { "; sample server peak RSS: \(format(megabytes(kib: Double($0)), 1)) MB (holds its dataset)" } ?? ""))
        output("throughput worker / wrk -c\(wrkConnections): \(format(workerRate, 0)) / \(format(reference, 0)) = \(format(ratio, 2))x"
            + "  -> \(passed ? "PASS" : "FAIL") (target >= \(format(targetRatio, 2))x)")
        return passed
    }
}
