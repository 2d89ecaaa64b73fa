import BenchmarkSupport
import Foundation

/// Every run's measurement, the summary table, and the targets.
struct Results {
    private var runs: [Key: [Measurement]] = [:]

    private struct Key: Hashable {
        var client: Client
        var concurrency: Int
    }

    mutating func add(_ client: Client, _ concurrency: Int, _ measurement: Measurement) {
        runs[Key(client: client, concurrency: concurrency), default: []].append(measurement)
    }

    private func measurements(_ client: Client, _ concurrency: Int) -> [Measurement] {
        runs[Key(client: client, concurrency: concurrency)] ?? []
    }

    /// The median over the repetitions of one figure, or `nil` if the client did not run at that concurrency.
    func median(_ client: Client, _ concurrency: Int, _ figure: (Measurement) -> Double?) -> Double? {
        let values = measurements(client, concurrency).compactMap(figure)
        return values.isEmpty ? nil : HTTPBenchmark.median(values)
    }

    struct Targets {
        /// CurlHTTP/AsyncHTTPClient requests per second at concurrency 64, at least.
        var ahcRatio: Double
        /// CurlHTTP/wrk requests per second at concurrency 64, at least.
        var wrkRatio: Double
        /// CurlHTTP's p99 minus wrk's at concurrency 1, at most (ms).
        var p99ExcessMilliseconds: Double
        /// CurlHTTP/libcurl (C) requests per second at concurrency 64, at least.
        var libcurlRatio: Double
        /// CurlHTTP's p99 minus libcurl (C)'s at concurrency 1, at most (ms).
        var libcurlP99ExcessMilliseconds: Double
    }

    /// Prints the table and the ratios; returns whether every target that could be checked passed.
    func printTable(clients: [Client], concurrencies: [Int], repetitions: Int, targets: Targets) -> Bool {
        output(
            "HTTP GET, one local nginx, \(repetitions) run\(repetitions == 1 ? "" : "s") per cell (median shown); "
                + "CPU is the client process's (and the nginx worker's) CPU time per request"
        )
        let header = [
            "client".padding(15), "conc".leftPadding(4), "req/s".leftPadding(9), "p50 ms".leftPadding(7),
            "p99 ms".leftPadding(7), "client CPU us/req".leftPadding(17), "server CPU us/req".leftPadding(17),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for concurrency in concurrencies {
            for client in clients {
                guard let rps = median(client, concurrency, \.requestsPerSecond) else { continue }
                let row = [
                    client.name.padding(15),
                    String(concurrency).leftPadding(4),
                    format(rps, 0).leftPadding(9),
                    format(median(client, concurrency, \.p50Milliseconds) ?? 0, 3).leftPadding(7),
                    format(median(client, concurrency, \.p99Milliseconds) ?? 0, 3).leftPadding(7),
                    (median(client, concurrency, \.clientCPUMicrosecondsPerRequest).map { format($0, 1) } ?? "-").leftPadding(17),
                    (median(client, concurrency, \.serverCPUMicrosecondsPerRequest).map { format($0, 1) } ?? "-").leftPadding(17),
                ]
                output(row.joined(separator: " | "))
            }
        }
        output("")

        var passed = true
        func check(_ label: String, _ value: Double?, _ ok: (Double) -> Bool, _ target: String, digits: Int = 3) {
            guard let value else {
                output("\(label): n/a (not measured)")
                passed = false
                return
            }
            let good = ok(value)
            passed = passed && good
            output("\(label): \(format(value, digits))  -> \(good ? "PASS" : "FAIL") (target \(target))")
        }
        func ratio(_ a: Client, _ b: Client, _ concurrency: Int) -> Double? {
            guard let x = median(a, concurrency, \.requestsPerSecond), let y = median(b, concurrency, \.requestsPerSecond), y > 0
            else { return nil }
            return x / y
        }
        check("c=64 req/s CurlHTTP/AsyncHTTPClient", ratio(.curl, .ahc, 64), { $0 >= targets.ahcRatio }, ">= \(format(targets.ahcRatio, 2))")
        check("c=64 req/s CurlHTTP/wrk", ratio(.curl, .wrk, 64), { $0 >= targets.wrkRatio }, ">= \(format(targets.wrkRatio, 2))")
        let excess: Double? = median(.curl, 1, \.p99Milliseconds).flatMap { curl in median(.wrk, 1, \.p99Milliseconds).map { curl - $0 } }
        check("c=1 p99 CurlHTTP - wrk (ms)", excess, { $0 <= targets.p99ExcessMilliseconds }, "<= \(format(targets.p99ExcessMilliseconds, 2)) ms")
        if clients.contains(.libcurl) {
            check(
                "c=64 req/s CurlHTTP/libcurl (C)", ratio(.curl, .libcurl, 64), { $0 >= targets.libcurlRatio },
                ">= \(format(targets.libcurlRatio, 2))")
            let excessC: Double? = median(.curl, 1, \.p99Milliseconds).flatMap { curl in
                median(.libcurl, 1, \.p99Milliseconds).map { curl - $0 }
            }
            check(
                "c=1 p99 CurlHTTP - libcurl (C) (ms)", excessC, { $0 <= targets.libcurlP99ExcessMilliseconds },
                "<= \(format(targets.libcurlP99ExcessMilliseconds, 3)) ms")
        }
        // For information: the other ratios.
        var notes: [String] = []
        if let value = ratio(.curl, .ahc, 1) { notes.append("c=1 req/s CurlHTTP/AsyncHTTPClient \(format(value, 3))") }
        if let value = ratio(.curl, .wrk, 1) { notes.append("c=1 req/s CurlHTTP/wrk \(format(value, 3))") }
        if let value = ratio(.ahc, .wrk, 64) { notes.append("c=64 req/s AsyncHTTPClient/wrk \(format(value, 3))") }
        if let curl = median(.curl, 1, \.p99Milliseconds), let ahc = median(.ahc, 1, \.p99Milliseconds) {
            notes.append("c=1 p99 CurlHTTP - AsyncHTTPClient \(format(curl - ahc, 3)) ms")
        }
        if let value = ratio(.curl, .libcurlSocket, 64) { notes.append("c=64 req/s CurlHTTP/libcurl sock (C) \(format(value, 3))") }
        if let value = ratio(.libcurlSocket, .libcurl, 64) { notes.append("c=64 req/s libcurl sock (C)/libcurl (C) \(format(value, 3))") }
        if let curl = median(.curl, 1, \.p99Milliseconds), let c = median(.libcurlSocket, 1, \.p99Milliseconds) {
            notes.append("c=1 p99 CurlHTTP - libcurl sock (C) \(format(curl - c, 3)) ms")
        }
        if let value = ratio(.libcurl, .wrk, 64) { notes.append("c=64 req/s libcurl (C)/wrk \(format(value, 3))") }
        if let value = ratio(.curl, .libcurl, 1) { notes.append("c=1 req/s CurlHTTP/libcurl (C) \(format(value, 3))") }
        for note in notes { output("(info) " + note) }
        output(passed ? "ALL TARGETS PASS" : "SOME TARGETS FAIL")
        return passed
    }
}
