import BenchmarkSupport
import CurlHTTP
import Foundation
import Logging

/// One GET with a client under test: checks status 200 and the body's length, throws otherwise.
typealias Exchange = @Sendable () async throws -> Void

/// Closed-loop load from Swift tasks: `concurrency` tasks in a task group, each sending one request after
/// another until the deadline, timing each with `ContinuousClock` (from the call to the whole body in hand).
struct SwiftLoad: Sendable {
    let serverPID: Int32?

    /// A warm-up of `warmup` (connections opened, caches filled; not counted), then the timed run.
    ///
    /// With `executor`, the tasks prefer it (CurlHTTP's loop thread); without, they run on the cooperative pool.
    func run(
        concurrency: Int, warmup: Duration, duration: Duration, executor: (any TaskExecutor)? = nil, exchange: @escaping Exchange
    ) async throws -> Measurement {
        if warmup > .zero { _ = try await load(concurrency: concurrency, duration: warmup, executor: executor, exchange: exchange) }
        let serverBefore = serverPID.flatMap(processCPUSeconds(pid:))
        let cpuBefore = processCPUSeconds()
        let (samples, elapsed) = try await load(concurrency: concurrency, duration: duration, executor: executor, exchange: exchange)
        let cpu = processCPUSeconds() - cpuBefore
        let serverAfter = serverPID.flatMap(processCPUSeconds(pid:))
        return Measurement(
            requests: samples.count,
            seconds: elapsed.seconds,
            p50Milliseconds: percentileMilliseconds(samples, 0.50),
            p99Milliseconds: percentileMilliseconds(samples, 0.99),
            clientCPUSeconds: cpu,
            serverCPUSeconds: serverBefore.flatMap { before in serverAfter.map { $0 - before } }
        )
    }

    /// Latencies in nanoseconds, sorted, and the time from the start to the last task's end.
    private func load(
        concurrency: Int, duration: Duration, executor: (any TaskExecutor)?, exchange: @escaping Exchange
    ) async throws -> ([Int64], Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + duration
        // Room for ~50k requests/s per task without growing (grows if needed).
        let capacity = max(1024, Int(duration.seconds * 50_000) / concurrency)
        var all: [Int64] = []
        try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<concurrency {
                group.addTask(executorPreference: executor) {
                    var latencies: [Int64] = []
                    latencies.reserveCapacity(capacity)
                    var now = clock.now
                    while now < end {
                        let sent = now
                        try await exchange()
                        now = clock.now
                        latencies.append((now - sent).nanoseconds)
                    }
                    return latencies
                }
            }
            for try await latencies in group { all.append(contentsOf: latencies) }
        }
        let elapsed = clock.now - start
        all.sort()
        return (all, elapsed)
    }
}

/// The client under test, `CurlHTTP.HTTPClient`, with room for 64 connections to the one host.
final class CurlClientUnderTest: Sendable {
    let client: CurlHTTP.HTTPClient
    let request: HTTPRequest
    let expectedBodyBytes: Int

    init(url: String, expectedBodyBytes: Int, maxConnections: Int, logger: Logger) throws {
        var configuration = HTTPClientConfiguration()
        configuration.maxConnectionsPerHost = max(configuration.maxConnectionsPerHost, maxConnections)
        configuration.maxConnections = max(configuration.maxConnections, maxConnections)
        client = try CurlHTTP.HTTPClient(configuration: configuration, logger: logger)
        request = HTTPRequest(url: url)
        self.expectedBodyBytes = expectedBodyBytes
    }

    @Sendable func exchange() async throws {
        let response = try await client.execute(request)
        guard response.status == 200, response.body.count == expectedBodyBytes else {
            throw BenchmarkError("CurlHTTP: status \(response.status), \(response.body.count) body bytes (expected 200, \(expectedBodyBytes))")
        }
    }

    func shutdown() async { await client.shutdown() }
}
