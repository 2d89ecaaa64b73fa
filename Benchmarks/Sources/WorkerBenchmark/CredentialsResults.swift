import BenchmarkSupport

/// The secured and public throughput runs, and the table of their medians.
struct CredentialsResults {
    var secured: [WorkerThroughputRun.Figures] = []
    var open: [WorkerThroughputRun.Figures] = []
    /// Tokens the server issued during each secured run (one per worker process: its first token).
    var securedTokens: [Int] = []

    /// Prints the medians, the ratio and the verdict; returns whether the target passed.
    func printThroughput(targetRatio: Double, repetitions: Int) -> Bool {
        func cell(_ value: Double?, _ digits: Int, _ width: Int) -> String {
            (value.map { format($0, digits) } ?? "-").leftPadding(width)
        }
        output("")
        output("Secured against public (ids query = returnIdsOnly + returnCountOnly), median of \(repetitions) run\(repetitions == 1 ? "" : "s") per side")
        let header = [
            "side".padding(36), "requests/s".leftPadding(10), "worker CPU ms/req".leftPadding(17),
            "server CPU ms/req".leftPadding(17), "tokens/run".leftPadding(15),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        let securedRate = median(secured.map(\.requestsPerSecond))
        let openRate = median(open.map(\.requestsPerSecond))
        let calls = securedTokens.isEmpty ? "-" : "\(securedTokens.min() ?? 0)-\(securedTokens.max() ?? 0)"
        output([
            "secured (Secured/…, token credential)".padding(36), cell(securedRate, 0, 10),
            cell(median(secured.map(\.workerCPUMilliseconds)), 3, 17), cell(median(secured.compactMap(\.serverCPUMilliseconds)), 3, 17),
            calls.leftPadding(15),
        ].joined(separator: " | "))
        output([
            "public (same layer, same worker)".padding(36), cell(openRate, 0, 10),
            cell(median(open.map(\.workerCPUMilliseconds)), 3, 17), cell(median(open.compactMap(\.serverCPUMilliseconds)), 3, 17),
            "0".leftPadding(15),
        ].joined(separator: " | "))
        let ratio = openRate > 0 ? securedRate / openRate : 0
        let cpuRatio = median(open.map(\.workerCPUMilliseconds)) > 0
            ? median(secured.map(\.workerCPUMilliseconds)) / median(open.map(\.workerCPUMilliseconds)) : 0
        let passed = ratio >= targetRatio
        output("")
        output("worker CPU per request secured / public: \(format(cpuRatio, 2))x")
        output("throughput secured / public: \(format(securedRate, 0)) / \(format(openRate, 0)) = \(format(ratio, 2))x"
            + "  -> \(passed ? "PASS" : "FAIL") (target >= \(format(targetRatio, 2))x)")
        return passed
    }
}
