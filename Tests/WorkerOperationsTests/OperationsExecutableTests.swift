import ChildProcessFixture
import CurlHTTP
import Foundation
import Testing

/// `query-worker run --ops-port` as a process: the flag reaches the endpoint, the executable bootstraps the
/// Prometheus registry, runs the heap trim beside the worker, and SIGTERM stops the worker and its endpoint.
@Suite(.serialized)
struct OperationsExecutableTests {
    /// `query-worker`, built beside the test bundle.
    static var executable: String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [
            besideTests.appendingPathComponent("query-worker").path,
            besideTests.deletingLastPathComponent().appendingPathComponent("query-worker").path,
            root.appendingPathComponent(".build/debug/query-worker").path,
        ].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: executable != nil, "query-worker is not built (swift build)"))
    func runServesTheEndpointOnItsFlag() async throws {
        let executable = try #require(Self.executable)
        let directory = try InteropTools.temporaryDirectory("ops-exe")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"]
        let kafka = try WatchedProcess(
            name: "embedded-kafka",
            [executable, "embedded-kafka", "--topic", "feature-queries:2", "--topic", "feature-query-results:1",
             "--topic", "feature-query-errors:1", "--log-level", "warning"],
            environment: environment, logDirectory: directory)
        let bootstrap = try await Self.line(of: kafka) { $0.hasPrefix("127.0.0.1:") }
        let port = try ChildProcesses.unusedPort()
        let worker = try WatchedProcess(
            name: "worker",
            [executable, "run", "--bootstrap-servers", bootstrap, "--ops-port", "\(port)", "--summary-interval", "0",
             "--memory-trim-interval", "250ms", "--log-level", "debug"],
            environment: environment.merging(["QUERY_WORKER_OPS_ADDRESS": "127.0.0.1"]) { $1 }, logDirectory: directory)
        let http = try HTTPClient(logger: OperationsHarness.logger)
        let base = "http://127.0.0.1:\(port)"

        var ready = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while ready != 200, ContinuousClock.now < deadline {
            ready = (try? await http.execute(HTTPRequest(url: base + "/health/ready")))?.status ?? 0
            if ready != 200 { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(ready == 200, "not ready: \(worker.log.suffix(2_000))")
        let metrics = try await http.execute(HTTPRequest(url: base + "/metrics"))
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let page = try await http.execute(HTTPRequest(url: base + "/"))
        #expect(page.bodyString.contains(#"data-key="opsPort" data-value="\#(port)""#))
        #expect(worker.log.contains("Server started and listening on 127.0.0.1:\(port)"))
        // The executable's heap trim runs (its debug line), and its counter is on the endpoint.
        let trimmed = try await Self.line(of: worker) { $0.contains(#""message":"heap trimmed""#) }
        #expect(trimmed.contains("releasedBytes"))
        let afterTrim = try await http.execute(HTTPRequest(url: base + "/metrics"))
        #expect(afterTrim.bodyString.contains("query_worker_memory_trimmed_bytes_total"))

        await worker.stop()
        #expect(!worker.isRunning)
        #expect((try? await http.execute(HTTPRequest(url: base + "/health/live"))) == nil, "the endpoint stopped with the worker")
        await http.shutdown()
        await kafka.stop()
    }

    /// The first line of `process`'s log satisfying `accept` (30 s at most).
    /// The first line of `process`'s output that `accept` takes, as soon as it is there. The bound is generous:
    /// it only ends a wait that would otherwise hang (a child starved by parallel builds once took 30 s to print).
    static func line(of process: WatchedProcess, _ accept: (Substring) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let line = process.log.split(separator: "\n").first(where: accept) { return String(line) }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcessFailure("\(process.name) printed no such line: \(process.log.suffix(1_000))")
    }
}
