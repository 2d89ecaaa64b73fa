import BenchmarkSupport

/// The two sides of `latency`: the README's commands as they are, and the same with the old fetch wait.
enum LatencySide: String {
    case readme = "README commands"
    case peer = "peer: fetch wait 500 ms"
}

/// One pair of `latency`, in milliseconds from Kafka timestamps.
struct PairSample {
    /// B's request → A's `superseded` outcome.
    var supersessionMs: Double
    /// C's request → C's outcome (a request superseding nothing), minus the server's own time.
    var aboveServerMs: Double
    /// How many parcels queries the server saw for C.
    var serverQueries: Int
    /// C's request → C's outcome, minus the same query sent directly to the server (``LatencyBenchmark/directServerMs(after:server:client:)``).
    var aboveDirectMs: Double
}

/// One `query --wait`, in milliseconds.
struct QuerySample {
    /// The outcome's Kafka timestamp → its status line read from the command's output.
    var outcomeToPrintedMs: Double
    /// The request's Kafka timestamp → the status line.
    var requestToPrintedMs: Double
    /// The command's start → its exit.
    var commandMs: Double
}

/// One run of one side.
struct LatencyRun {
    var pairs: [PairSample] = []
    var query: [QuerySample] = []
    var peerQuery: [QuerySample] = []

    mutating func add(_ sample: PairSample) { pairs.append(sample) }

    var supersession: Distribution { Distribution(pairs.map(\.supersessionMs)) }
    var aboveServer: Distribution { Distribution(pairs.map(\.aboveServerMs)) }
    var aboveDirect: Distribution { Distribution(pairs.map(\.aboveDirectMs)) }

    var summary: String {
        let queries = Set(pairs.map(\.serverQueries)).sorted().map(String.init).joined(separator: "/")
        var text = "\(pairs.count) pairs (\(queries) server queries per request); supersession \(supersession.text); request -> outcome above the server \(aboveServer.text) (above a direct request \(aboveDirect.text))"
        if !query.isEmpty {
            text += "; query --wait: outcome -> printed \(Distribution(query.map(\.outcomeToPrintedMs)).text), "
                + "command \(Distribution(query.map(\.commandMs)).text)"
        }
        if !peerQuery.isEmpty {
            text += "; peer query --wait: outcome -> printed \(Distribution(peerQuery.map(\.outcomeToPrintedMs)).text)"
        }
        return text
    }
}

/// Every run of both sides and the table of medians.
struct LatencyResults {
    var readme: [LatencyRun] = []
    var peer: [LatencyRun] = []

    static let supersessionTargetP99Ms = 25.0
    static let aboveServerTargetP50Ms = 5.0
    static let printedTargetMs = 100.0

    mutating func append(_ run: LatencyRun, side: LatencySide) {
        switch side {
        case .readme: readme.append(run)
        case .peer: peer.append(run)
        }
    }

    /// Prints the medians over runs of each run's percentiles and the verdicts; returns whether all passed.
    func printTable(repetitions: Int) -> Bool {
        func row(_ label: String, _ runs: [Distribution], note: String = "") {
            guard !runs.isEmpty else { return }
            output([
                label.padding(56), format(median(runs.map(\.p50)), 1).leftPadding(8), format(median(runs.map(\.p99)), 1).leftPadding(8),
                format(median(runs.map(\.max)), 1).leftPadding(8),
            ].joined(separator: " | ") + note)
        }
        output("")
        output("Latency on the embedded cluster, ms (median over \(repetitions) run\(repetitions == 1 ? "" : "s") of each run's percentiles)")
        let header = ["measure".padding(56), "p50".leftPadding(8), "p99".leftPadding(8), "max".leftPadding(8)]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        row("README: B published -> A superseded", readme.map(\.supersession), note: "   <- target p99")
        row("README: C published -> C outcome, minus the fault's length", readme.map(\.aboveServer))
        row("README: C published -> C outcome, minus a direct request", readme.map(\.aboveDirect), note: "   <- target p50")
        row("peer (500 ms): B published -> A superseded", peer.map(\.supersession))
        row("peer (500 ms): C published -> C outcome, minus server", peer.map(\.aboveServer))
        let queries = readme.filter { !$0.query.isEmpty }
        row("query --wait: outcome published -> printed", queries.map { Distribution($0.query.map(\.outcomeToPrintedMs)) }, note: "   <- target")
        row("query --wait: request published -> printed", queries.map { Distribution($0.query.map(\.requestToPrintedMs)) })
        row("query --wait: whole command", queries.map { Distribution($0.query.map(\.commandMs)) })
        let peers = readme.filter { !$0.peerQuery.isEmpty }
        row("peer query --wait: outcome published -> printed", peers.map { Distribution($0.peerQuery.map(\.outcomeToPrintedMs)) })
        row("peer query --wait: whole command", peers.map { Distribution($0.peerQuery.map(\.commandMs)) })
        output("Kafka timestamps are whole milliseconds; 'printed' is when this process read the line (real-time clock).")

        let supersessionP99 = median(readme.map(\.supersession.p99))
        // The server's own time as a direct request of the same query takes: the fault's length leaves out
        // its timer's overshoot and the count's computing.
        let aboveP50 = median(readme.map(\.aboveDirect.p50))
        let printedMax = median(queries.map { Distribution($0.query.map(\.outcomeToPrintedMs)).max })
        var passed = true
        func verdict(_ label: String, _ value: Double, _ target: Double) {
            let ok = value <= target
            passed = passed && ok
            output("\(label): \(format(value, 1)) ms -> \(ok ? "PASS" : "FAIL") (target <= \(format(target, 0)) ms)")
        }
        output("")
        verdict("supersession p99", supersessionP99, Self.supersessionTargetP99Ms)
        verdict("request -> outcome above the server (a direct request), p50", aboveP50, Self.aboveServerTargetP50Ms)
        if !queries.isEmpty { verdict("query --wait outcome -> printed, max", printedMax, Self.printedTargetMs) }
        return passed
    }
}
