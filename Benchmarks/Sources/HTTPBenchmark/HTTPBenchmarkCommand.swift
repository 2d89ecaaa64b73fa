import BenchmarkSupport
import ArgumentParser
import Foundation
import Logging

/// `http-benchmark`: requests per second and p50/p99 latency of CurlHTTP, `wrk` and AsyncHTTPClient against
/// one local server, at concurrency 64 and 1, in one run. Run it through `Benchmarks/run-http-benchmark.sh`,
/// which builds it and starts the server (nginx).
@main
struct HTTPBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-benchmark",
        abstract: "Requests/s and p50/p99 latency of CurlHTTP against wrk and AsyncHTTPClient on one local server.",
        discussion: """
            Every client sends GET --url over HTTP/1.1 keep-alive connections in a closed loop: N connections \
            (wrk: `wrk -t1|2 -cN -dDs --latency`) or N Swift tasks each awaiting one request after another \
            (CurlHTTP, AsyncHTTPClient; each Swift run is preceded by a --warmup run that is not counted). \
            Latency is from the call to the whole body in hand (Swift) or wrk's own. Within a repetition the \
            concurrencies run in the order given and the clients in an order that rotates between \
            repetitions. Prints every run, then a table of the medians and the ratios against the targets.
            """
    )

    @Option(help: "The URL every client requests.")
    var url: String

    @Option(help: "The body length every response must have; default: that of a first response.")
    var expectedBodyBytes: Int?

    @Option(help: "Path to wrk.")
    var wrk: String = "/usr/bin/wrk"

    @Option(help: "Path to the libcurl-alone reference (built from Benchmarks/c/curl_multi_bench.c); enables clients 'libcurl' and 'libcurl-socket'.")
    var libcurlBench: String?

    @Option(help: "The libcurl reference's loop: perform (curl_multi_perform + curl_multi_poll, as CurlHTTP) or socket (curl_multi_socket_action + epoll).")
    var libcurlLoop: String = "perform"

    @Option(help: "The libcurl reference's easy handles: reset (every option set again per request, as CurlHTTP) or reuse.")
    var libcurlHandles: String = "reset"

    @Option(help: "PID of the server's worker process, to report its CPU time per request.")
    var serverPID: Int32?

    @Option(help: "Seconds of each timed run.")
    var duration: Int = 10

    @Option(help: "Seconds of the uncounted warm-up before each Swift client's run.")
    var warmup: Double = 1

    @Option(help: "Concurrencies, comma-separated, in the order they run.")
    var concurrency: String = "64,1"

    @Option(
        help: """
            Clients, comma-separated (wrk, curl, ahc, libcurl, libcurl-socket), in the order of the first \
            repetition; default: wrk,curl,ahc, and libcurl,libcurl-socket when --libcurl-bench is given \
            (libcurl: the C loop of --libcurl-loop/--libcurl-handles, the reference of the libcurl targets; \
            libcurl-socket: socket + reuse, for information).
            """
    )
    var clients: String?

    @Option(help: "Runs of every client at every concurrency; the table shows the medians.")
    var repetitions: Int = 1

    @Option(help: "Target: CurlHTTP/AsyncHTTPClient requests/s at concurrency 64, at least.")
    var targetAHCRatio: Double = 1.5

    @Option(help: "Target: CurlHTTP/libcurl (C) requests/s at concurrency 64, at least (needs client libcurl).")
    var targetLibcurlRatio: Double = 0.9

    @Option(help: "Target: CurlHTTP's p99 minus libcurl (C)'s at concurrency 1, at most, in milliseconds (needs client libcurl).")
    var targetLibcurlP99Excess: Double = 0.05

    @Option(help: "Target: CurlHTTP/wrk requests/s at concurrency 64, at least.")
    var targetWrkRatio: Double = 0.7

    @Option(help: "Target: CurlHTTP's p99 minus wrk's at concurrency 1, at most, in milliseconds.")
    var targetP99Excess: Double = 0.2

    @Option(help: "Log level of CurlHTTP.")
    var logLevel: String = "warning"

    @Flag(help: "Exit with status 1 when a target is missed.")
    var strict = false

    func validate() throws {
        guard duration > 0, warmup >= 0, repetitions > 0 else {
            throw ValidationError("--duration and --repetitions must be positive, --warmup not negative")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        _ = try selectedClients
        _ = try selectedConcurrencies
        guard ["perform", "socket"].contains(libcurlLoop), ["reset", "reuse"].contains(libcurlHandles) else {
            throw ValidationError("--libcurl-loop is perform or socket, --libcurl-handles reset or reuse")
        }
    }

    private var selectedClients: [Client] {
        get throws {
            let names = clients ?? (libcurlBench == nil ? "wrk,curl,curl-pool,ahc" : "wrk,curl,curl-pool,ahc,libcurl,libcurl-socket")
            let list = try names.split(separator: ",").map { name in
                guard let client = Client(rawValue: name.lowercased()) else {
                    throw ValidationError("unknown client '\(name)' in --clients (wrk, curl, curl-pool, ahc, libcurl, libcurl-socket)")
                }
                return client
            }
            guard !list.isEmpty, Set(list).count == list.count else { throw ValidationError("--clients is empty or repeats a client") }
            if (list.contains(.libcurl) || list.contains(.libcurlSocket)) && libcurlBench == nil {
                throw ValidationError("clients libcurl and libcurl-socket need --libcurl-bench")
            }
            return list
        }
    }

    private var selectedConcurrencies: [Int] {
        get throws {
            let list = try concurrency.split(separator: ",").map { text in
                guard let value = Int(text), value > 0 else { throw ValidationError("bad concurrency '\(text)'") }
                return value
            }
            guard !list.isEmpty else { throw ValidationError("--concurrency is empty") }
            return list
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "http-benchmark")
        let clients = try selectedClients
        let concurrencies = try selectedConcurrencies
        let maxConcurrency = concurrencies.max() ?? 1

        let curl = try CurlClientUnderTest(url: url, expectedBodyBytes: expectedBodyBytes ?? 0, maxConnections: maxConcurrency, logger: logger)
        // The expected length: given, or that of a first response (through CurlHTTP, which then checks it too).
        let bodyBytes: Int
        if let expectedBodyBytes {
            bodyBytes = expectedBodyBytes
        } else {
            let first = try await curl.client.execute(.init(url: url))
            guard first.status == 200, !first.body.isEmpty else {
                await curl.shutdown()
                throw BenchmarkError("\(url) answered status \(first.status) with \(first.body.count) body bytes")
            }
            bodyBytes = first.body.count
        }
        await curl.shutdown()
        let curlClient = try CurlClientUnderTest(url: url, expectedBodyBytes: bodyBytes, maxConnections: maxConcurrency, logger: logger)
        let ahcClient = clients.contains(.ahc)
            ? try AsyncHTTPClientUnderTest(url: url, expectedBodyBytes: bodyBytes, maxConnections: maxConcurrency) : nil

        let wrkRunner = WrkRunner(executable: wrk, url: url, serverPID: serverPID)
        let load = SwiftLoad(serverPID: serverPID)
        let libcurlRunner = libcurlBench.map {
            LibcurlRunner(
                executable: $0, url: url, expectedBodyBytes: bodyBytes, loop: libcurlLoop, handles: libcurlHandles, serverPID: serverPID)
        }
        let libcurlSocketRunner = libcurlBench.map {
            LibcurlRunner(executable: $0, url: url, expectedBodyBytes: bodyBytes, loop: "socket", handles: "reuse", serverPID: serverPID)
        }
        output(
            "http-benchmark: GET \(url) (\(bodyBytes) B body), \(duration) s per run, \(format(warmup, 1)) s warm-up "
                + "(Swift clients), concurrency \(concurrencies.map(String.init).joined(separator: ", ")), "
                + "\(repetitions) repetition\(repetitions == 1 ? "" : "s"); wrk -t\(concurrencies.map { String(WrkRunner.threads(for: $0)) }.joined(separator: "/")); "
                + "CurlHTTP maxConnectionsPerHost \(curlClient.client.configuration.maxConnectionsPerHost); "
                + "AsyncHTTPClient singleton event loop group (\(ProcessInfo.processInfo.activeProcessorCount) threads), "
                + "HTTP/1 soft limit \(maxConcurrency) per host"
                + (clients.contains(.libcurl) ? "; libcurl (C) loop \(libcurlLoop), handles \(libcurlHandles)" : "")
                + (clients.contains(.libcurlSocket) ? "; libcurl sock (C) loop socket, handles reuse" : "")
        )

        var results = Results()
        var failure: (any Error)?
        do {
            for repetition in 1...repetitions {
                let shift = (repetition - 1) % clients.count
                let order = Array(clients[shift...] + clients[..<shift])
                for concurrency in concurrencies {
                    for client in order {
                        let measurement: Measurement
                        switch client {
                        case .wrk:
                            measurement = try await wrkRunner.run(concurrency: concurrency, seconds: duration)
                        case .curl:
                            measurement = try await load.run(
                                concurrency: concurrency, warmup: .seconds(warmup), duration: .seconds(duration),
                                executor: curlClient.client.taskExecutor, exchange: curlClient.exchange)
                        case .curlPool:
                            measurement = try await load.run(
                                concurrency: concurrency, warmup: .seconds(warmup), duration: .seconds(duration), exchange: curlClient.exchange)
                        case .ahc:
                            guard let ahcClient else { throw BenchmarkError("client ahc was not set up") }
                            measurement = try await load.run(
                                concurrency: concurrency, warmup: .seconds(warmup), duration: .seconds(duration), exchange: ahcClient.exchange)
                        case .libcurl:
                            guard let libcurlRunner else { throw BenchmarkError("client libcurl needs --libcurl-bench") }
                            measurement = try await libcurlRunner.run(concurrency: concurrency, seconds: duration, warmup: warmup)
                        case .libcurlSocket:
                            guard let libcurlSocketRunner else { throw BenchmarkError("client libcurl-socket needs --libcurl-bench") }
                            measurement = try await libcurlSocketRunner.run(concurrency: concurrency, seconds: duration, warmup: warmup)
                        }
                        results.add(client, concurrency, measurement)
                        report(repetition, client, concurrency, measurement)
                    }
                }
            }
        } catch {
            failure = error
        }
        await curlClient.shutdown()
        try await ahcClient?.shutdown()
        if let failure { throw failure }

        output("")
        let passed = results.printTable(
            clients: Client.allCases.filter(clients.contains),
            concurrencies: concurrencies,
            repetitions: repetitions,
            targets: .init(
                ahcRatio: targetAHCRatio, wrkRatio: targetWrkRatio, p99ExcessMilliseconds: targetP99Excess,
                libcurlRatio: targetLibcurlRatio, libcurlP99ExcessMilliseconds: targetLibcurlP99Excess)
        )
        if strict && !passed { throw ExitCode(1) }
    }

    private func report(_ repetition: Int, _ client: Client, _ concurrency: Int, _ measurement: Measurement) {
        output(
            "run \(repetition): \(client.name.padding(15)) c=\(String(concurrency).padding(3)) "
                + "\(String(measurement.requests).leftPadding(7)) requests in \(format(measurement.seconds, 2)) s = "
                + "\(format(measurement.requestsPerSecond, 0).leftPadding(6)) req/s, "
                + "p50 \(format(measurement.p50Milliseconds, 3)) ms, p99 \(format(measurement.p99Milliseconds, 3)) ms, "
                + "client CPU \(measurement.clientCPUMicrosecondsPerRequest.map { format($0, 1) } ?? "-") us/req, "
                + "server CPU \(measurement.serverCPUMicrosecondsPerRequest.map { format($0, 1) } ?? "-") us/req"
        )
    }
}
