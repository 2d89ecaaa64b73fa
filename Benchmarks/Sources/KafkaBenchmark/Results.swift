import BenchmarkSupport
import Foundation

/// Every run's measurement, and the summary table.
struct Results {
    private var runs: [Key: [Measurement]] = [:]
    private(set) var librdkafkaVersion: String?

    private struct Key: Hashable {
        var side: Side
        var operation: Operation
    }

    mutating func add(_ side: Side, _ operation: Operation, _ measurement: Measurement) {
        runs[Key(side: side, operation: operation), default: []].append(measurement)
        if let version = measurement.librdkafkaVersion { librdkafkaVersion = version }
    }

    /// Messages per second of the fastest run.
    func best(_ side: Side, _ operation: Operation) -> Double {
        rates(side, operation).last ?? 0
    }

    /// Messages per second of the median run (the mean of the middle two for an even count).
    func median(_ side: Side, _ operation: Operation) -> Double {
        let sorted = rates(side, operation)
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Median CPU microseconds per message of the client process.
    func medianCPU(_ side: Side, _ operation: Operation) -> Double {
        let sorted = (runs[Key(side: side, operation: operation)] ?? []).map(\.cpuMicrosecondsPerMessage).sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func rates(_ side: Side, _ operation: Operation) -> [Double] {
        (runs[Key(side: side, operation: operation)] ?? []).map(\.messagesPerSecond).sorted()
    }

    /// Prints the table; returns whether both median ratios reach the target.
    func printTable(target: Double, messages: Int, messageSize: Int) -> Bool {
        let megabytes = { (rate: Double) in rate * Double(messageSize) / 1_000_000 }
        let runCount = runs.values.map(\.count).min() ?? 0
        output(
            "Kafka throughput, Swift bridge vs C client (librdkafka \(librdkafkaVersion ?? "?")): "
                + "\(messages) messages x \(messageSize) B, \(runCount) runs per side; rates are best / median, "
                + "CPU is the client process's CPU time per message (median)"
        )
        let header = [
            "side".padding(6), "produce msgs/s".leftPadding(21), "consume msgs/s".leftPadding(21),
            "produce MB/s".leftPadding(15), "consume MB/s".leftPadding(15),
            "CPU us/msg prod".leftPadding(15), "CPU us/msg cons".leftPadding(15),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for side in Side.allCases {
            let row = [
                side.name.padding(6),
                pair(best(side, .produce), median(side, .produce), 0).leftPadding(21),
                pair(best(side, .consume), median(side, .consume), 0).leftPadding(21),
                pair(megabytes(best(side, .produce)), megabytes(median(side, .produce)), 1).leftPadding(15),
                pair(megabytes(best(side, .consume)), megabytes(median(side, .consume)), 1).leftPadding(15),
                format(medianCPU(side, .produce), 2).leftPadding(15),
                format(medianCPU(side, .consume), 2).leftPadding(15),
            ]
            output(row.joined(separator: " | "))
        }
        output("")
        var passed = true
        for operation in [Operation.produce, .consume] {
            guard best(.c, operation) > 0, best(.swift, operation) > 0 else {
                output("Swift/C \(operation.rawValue): n/a (not measured on both sides)")
                passed = false
                continue
            }
            let bestRatio = ratio(best(.swift, operation), best(.c, operation))
            let medianRatio = ratio(median(.swift, operation), median(.c, operation))
            let ok = medianRatio >= target
            passed = passed && ok
            output(
                "Swift/C \(operation.rawValue): best \(format(bestRatio, 3)), median \(format(medianRatio, 3))"
                    + "  -> \(ok ? "PASS" : "FAIL") (target \(format(target, 2)) on the median)"
            )
        }
        return passed
    }

    private func ratio(_ swift: Double, _ c: Double) -> Double { c > 0 ? swift / c : 0 }

    private func pair(_ best: Double, _ median: Double, _ digits: Int) -> String {
        "\(format(best, digits)) / \(format(median, digits))"
    }
}
