import BenchmarkSupport

/// The runs of both sides for one kind of query, and the table of their medians.
struct CPUResults {
    enum Side: String, CaseIterable {
        case worker, peer

        var label: String { self == .worker ? "query-worker" : "Python peer" }
    }

    let kind: CPUWorkload.Kind
    var runs: [Side: [CPURun.Figures]] = [:]

    func medianRate(_ side: Side) -> Double { median((runs[side] ?? []).map(\.requestsPerSecond)) }
    func medianCPU(_ side: Side) -> Double { median((runs[side] ?? []).map(\.workerCPUMicroseconds)) }
    func medianServer(_ side: Side) -> Double? {
        let values = (runs[side] ?? []).compactMap(\.serverCPUMicroseconds)
        return values.isEmpty ? nil : median(values)
    }
    func medianKafka(_ side: Side) -> Double { median((runs[side] ?? []).map(\.kafkaCPUMicroseconds)) }

    /// The peer's CPU per request over ours (how many times less CPU the worker spends).
    var cpuRatio: Double { medianCPU(.worker) > 0 ? medianCPU(.peer) / medianCPU(.worker) : 0 }
    /// Our requests/s over the peer's.
    var throughputRatio: Double { medianRate(.peer) > 0 ? medianRate(.worker) / medianRate(.peer) : 0 }

    /// Whether the targets hold; they are set for `count` only (the issue's item 1), so other kinds pass.
    func verdict(cpuRatio target: Double, throughputRatio throughputTarget: Double) -> Bool {
        kind != .count || (cpuRatio >= target && throughputRatio >= throughputTarget)
    }

    /// Prints one table for every kind, then the ratios and the verdict of `count`'s targets.
    static func printTable(_ results: [CPUResults], cpuTarget: Double, throughputTarget: Double) {
        func cell(_ value: Double?, _ digits: Int, _ width: Int) -> String {
            (value.map { format($0, digits) } ?? "-").leftPadding(width)
        }
        let header = [
            "query".padding(9), "side".padding(13), "requests/s".leftPadding(10), "worker CPU µs/req".leftPadding(17),
            "server CPU µs/req".leftPadding(17), "Kafka CPU µs/req".leftPadding(16),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for result in results {
            for side in Side.allCases {
                output([
                    result.kind.rawValue.padding(9), side.label.padding(13), cell(result.medianRate(side), 0, 10),
                    cell(result.medianCPU(side), 0, 17), cell(result.medianServer(side), 0, 17),
                    cell(result.medianKafka(side), 0, 16),
                ].joined(separator: " | "))
            }
        }
        output("")
        for result in results {
            var line = "\(result.kind.rawValue): peer CPU / ours = \(format(result.cpuRatio, 2))x, "
                + "our requests/s / peer's = \(format(result.throughputRatio, 2))x"
            if result.kind == .count {
                let passed = result.verdict(cpuRatio: cpuTarget, throughputRatio: throughputTarget)
                line += "  -> \(passed ? "PASS" : "FAIL") (targets: >= \(format(cpuTarget, 1))x less CPU, >= "
                    + "\(format(throughputTarget, 2))x the throughput)"
            }
            output(line)
        }
    }
}
