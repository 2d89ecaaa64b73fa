import BenchmarkSupport

/// p50, p99 and max of a list of milliseconds.
struct Distribution {
    var p50: Double
    var p99: Double
    var max: Double

    init(_ values: [Double]) {
        p50 = percentile(values, 0.50)
        p99 = percentile(values, 0.99)
        max = values.max() ?? 0
    }

    var text: String { "p50 \(format(p50, 3)) / p99 \(format(p99, 3)) / max \(format(max, 3)) ms" }
}

/// One worker run of `supersession`, in milliseconds.
struct WorkerSupersessionRun {
    /// Superseding request received (log `ts`, ms-truncated: an upper bound) → later abort.
    var receivedToLast: Distribution
    /// The same, to the earlier of the two aborts.
    var receivedToFirst: Distribution
    /// Superseding request published → later abort.
    var publishedToLast: Distribution
    /// Published → received (log `ts`): Kafka's delivery to the worker, to within the millisecond.
    var delivery: Distribution
    var samples: Int

    init(_ samples: [CancelSample], received: [String: Int64], mapping: ClockMapping) {
        var toLast: [Double] = []
        var toFirst: [Double] = []
        var delivery: [Double] = []
        for sample in samples {
            guard let id = sample.requestId, let ts = received[id] else { continue }
            toLast.append(mapping.realtimeMilliseconds(sample.lastAbort) - Double(ts))
            toFirst.append(mapping.realtimeMilliseconds(sample.firstAbort) - Double(ts))
            delivery.append(Double(ts) - mapping.realtimeMilliseconds(sample.start))
        }
        receivedToLast = Distribution(toLast)
        receivedToFirst = Distribution(toFirst)
        publishedToLast = Distribution(samples.map { ($0.lastAbort - $0.start).milliseconds })
        self.delivery = Distribution(delivery)
        self.samples = toLast.count
    }

    var summary: String {
        "\(samples) supersessions; received → aborted \(receivedToLast.text); published → aborted \(publishedToLast.text); "
            + "Kafka delivery \(delivery.text)"
    }
}

/// One engine run of `supersession`, in milliseconds.
struct EngineCancelRun {
    /// `Task.cancel()` → later abort.
    var cancelToLast: Distribution
    /// `Task.cancel()` → earlier abort.
    var cancelToFirst: Distribution

    init(_ samples: [CancelSample]) {
        cancelToLast = Distribution(samples.map { ($0.lastAbort - $0.start).milliseconds })
        cancelToFirst = Distribution(samples.map { ($0.firstAbort - $0.start).milliseconds })
    }

    var summary: String { "Task.cancel() → aborted \(cancelToLast.text) (first of two: \(cancelToFirst.text))" }
}

/// Both sides' runs and the table of medians.
struct SupersessionResults {
    var worker: [WorkerSupersessionRun] = []
    var engine: [EngineCancelRun] = []

    /// Prints the medians over runs of each run's p50 and p99, and the verdict; returns whether it passed.
    func printTable(targetP99Ms: Double, repetitions: Int) -> Bool {
        func row(_ label: String, _ runs: [Distribution], note: String = "") {
            output([
                label.padding(48), format(median(runs.map(\.p50)), 3).leftPadding(8), format(median(runs.map(\.p99)), 3).leftPadding(8),
                format(median(runs.map(\.max)), 3).leftPadding(8),
            ].joined(separator: " | ") + note)
        }
        output("")
        output("Supersession → abort at the server, ms (median over \(repetitions) run\(repetitions == 1 ? "" : "s") of each run's percentiles)")
        let header = ["measure".padding(48), "p50".leftPadding(8), "p99".leftPadding(8), "max".leftPadding(8)]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        row("worker: B received (log ts*) -> A aborted", worker.map(\.receivedToLast), note: "   <- target")
        row("worker: B received (log ts*) -> 1st of 2 aborted", worker.map(\.receivedToFirst))
        row("worker: B published -> A aborted (with Kafka)", worker.map(\.publishedToLast))
        row("  Kafka: B published -> received (log ts*)", worker.map(\.delivery))
        row("raw engine: Task.cancel() -> aborted", engine.map(\.cancelToLast))
        row("raw engine: Task.cancel() -> 1st of 2 aborted", engine.map(\.cancelToFirst))
        output("* ts: the worker's log time, truncated to the millisecond: figures from it are upper bounds, at most "
            + "1 ms (0.5 ms on average) above the true ones. A aborted = the later of its two transfers' aborts.")
        let workerP50 = median(worker.map(\.receivedToLast.p50))
        let workerP99 = median(worker.map(\.receivedToLast.p99))
        let engineP50 = median(engine.map(\.cancelToLast.p50))
        let engineP99 = median(engine.map(\.cancelToLast.p99))
        output("")
        output("worker overhead over the raw engine cancel (received bound - engine): p50 \(format(workerP50 - engineP50, 3)) ms, "
            + "p99 \(format(workerP99 - engineP99, 3)) ms; ratio of p99s \(format(engineP99 > 0 ? workerP99 / engineP99 : 0, 2))x")
        let passed = workerP99 < targetP99Ms
        output("supersession p99 (B received -> A aborted): \(format(workerP99, 3)) ms  -> \(passed ? "PASS" : "FAIL") "
            + "(target < \(format(targetP99Ms, 1)) ms)")
        return passed
    }
}
