import ChildProcessFixture
import Foundation
import SampleFeatureServer
import Testing

@testable import QueryWorker
import Kafka
import WorkerTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `query-worker run` processes stopped with SIGTERM: the shutdown ends within `shutdownTimeout` + the fixed
/// margin (``ShutdownBudget``) whatever Kafka and the feature services do, and a second signal stops at once.
///
/// Bounds are generous (the margin plus 8 s) and load-independent: what they tell apart is "bounded" from
/// "waits for Kafka" (the old worker took over two minutes with the cluster unreachable and in-flight
/// outcomes, and never returned from the consumer's close with a cluster that stopped answering) or "runs the
/// whole drain" (a second SIGTERM was ignored).
///
/// Serialized: one test takes the broker down while the others spawn `query-worker`, and librdkafka's mock
/// aborts the process if a spawn overlaps a broker going down (``EmbeddedKafkaCluster/setBrokerDown(_:)``).
@Suite("Worker shutdown: bounded, whatever Kafka does", .serialized)
struct WorkerShutdownTests {
    /// The bound of a run with `--shutdown-timeout 2s`: the budget's total (22 s) and 30 s for a loaded machine
    /// and this test's own polling, still far below the old worker's two minutes.
    static let bound = ShutdownBudget(shutdownTimeout: .seconds(2)).total + .seconds(30)

    /// Three requests running (each query answered after 1.5 s), then the cluster goes away, then SIGTERM: the
    /// outcomes can never be delivered. The worker gives up on them after its budget (their requests are left
    /// for redelivery), the consumer's close is abandoned after its budget, and the process exits 0.
    @Test func kafkaUnreachableAtSIGTERMExitsWithinTheBound() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await LifecycleRig(
            partitions: 3, faults: [FaultRule(.latency(milliseconds: 1_500), pathContains: "/query")])
        let worker = try SignalledWorker(executable: executable, arguments: Self.arguments(rig, shutdownTimeout: "2s"))
        defer { worker.kill() }
        try #require(await worker.waitForLog("partitions assigned", timeout: .seconds(60)), "the worker joined\n\(worker.log)")

        let ids = (0..<3).map { "unreachable-\($0)" }
        try await rig.send(
            ids.map { (key: $0, json: LifecycleRig.request($0, task: $0, url: rig.url(.states), query: #"{"result":"count"}"#)) },
            spread: true)
        try #require(await worker.waitForLog("started", count: ids.count, timeout: .seconds(30)), "the requests started\n\(worker.log)")

        try rig.cluster.setBrokerDown(1)
        try await Task.sleep(for: .milliseconds(300))
        let signalled = ContinuousClock.now
        worker.signal(SIGTERM)
        let exit = await worker.waitForExit(timeout: .seconds(240))
        let took = ContinuousClock.now - signalled
        print("SIGTERM with Kafka unreachable and 3 outcomes undelivered: exited \(exit.map(String.init) ?? "not") after \(took)")
        #expect(exit == 0, "\(worker.log)")
        #expect(took < Self.bound, "shutdown took \(took), bound \(Self.bound)")

        try rig.cluster.setBrokerUp(1)
        try await rig.stop()
    }

    /// One request whose query never gets an answer, then SIGTERM: after `shutdownTimeout` the run is cancelled
    /// (its transfer aborted) and answered `cancelled` (`shutdown`), never `succeeded`, and the process exits.
    @Test func aHungHTTPRequestDoesNotHoldTheShutdown() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await LifecycleRig(
            partitions: 1, faults: [FaultRule(.latency(milliseconds: 600_000), pathContains: "/query")])
        let worker = try SignalledWorker(executable: executable, arguments: Self.arguments(rig, shutdownTimeout: "2s"))
        defer { worker.kill() }
        try #require(await worker.waitForLog("partitions assigned", timeout: .seconds(60)), "the worker joined\n\(worker.log)")

        try await rig.send([(key: "hung", json: LifecycleRig.request("hung", task: "hung", url: rig.url(.states)))])
        try #require(await worker.waitForLog("started", timeout: .seconds(30)), "the request started\n\(worker.log)")
        try await Task.sleep(for: .milliseconds(500))

        let signalled = ContinuousClock.now
        worker.signal(SIGTERM)
        let exit = await worker.waitForExit(timeout: .seconds(240))
        let took = ContinuousClock.now - signalled
        print("SIGTERM with one hung HTTP request: exited \(exit.map(String.init) ?? "not") after \(took)")
        #expect(exit == 0, "\(worker.log)")
        #expect(took < Self.bound, "shutdown took \(took), bound \(Self.bound)")

        #expect(await rig.waitForAnswers(to: ["hung"], timeout: .seconds(30)), "the hung request was answered")
        let outcomes = rig.outcomesByRequest["hung"] ?? []
        #expect(!outcomes.contains { $0.status == "succeeded" }, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0.status == "cancelled" && $0.errorCode == "shutdown" }, "\(outcomes)")
        try await rig.stop()
    }

    /// A drain that would last two minutes (a hung request, `--shutdown-timeout 120s`), then a second SIGTERM:
    /// the worker exits at once with status 143 after logging one line.
    @Test func aSecondSIGTERMDuringALongDrainStopsAtOnce() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await LifecycleRig(
            partitions: 1, faults: [FaultRule(.latency(milliseconds: 600_000), pathContains: "/query")])
        let worker = try SignalledWorker(executable: executable, arguments: Self.arguments(rig, shutdownTimeout: "120s"))
        defer { worker.kill() }
        try #require(await worker.waitForLog("partitions assigned", timeout: .seconds(60)), "the worker joined\n\(worker.log)")

        try await rig.send([(key: "long", json: LifecycleRig.request("long", task: "long", url: rig.url(.states)))])
        try #require(await worker.waitForLog("started", timeout: .seconds(30)), "the request started\n\(worker.log)")

        worker.signal(SIGTERM)
        try #require(await worker.waitForLog("draining", timeout: .seconds(30)), "the drain began\n\(worker.log)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(worker.isRunning, "still draining after the first SIGTERM")

        let signalled = ContinuousClock.now
        worker.signal(SIGTERM)
        let exit = await worker.waitForExit(timeout: .seconds(100))
        let took = ContinuousClock.now - signalled
        print("second SIGTERM during a 120 s drain: exited \(exit.map(String.init) ?? "not") after \(took)")
        #expect(exit == 128 + SIGTERM, "\(worker.log)")
        // It exits within milliseconds; the bound is half the 120 s drain the old worker sat through, so this
        // test's own polling on a loaded machine (other suites share its cooperative pool) cannot fail it.
        #expect(took < .seconds(60), "the second SIGTERM took \(took)")
        #expect(worker.count("second signal received; stopping at once") == 1)
        try await rig.stop()
    }

    /// docker-compose.yml's `stop_grace_period` and Tests/DeploymentTests count on this margin.
    @Test func theShutdownMarginIsTwentySeconds() {
        #expect(ShutdownBudget.margin == .seconds(20))
        let budget = ShutdownBudget(shutdownTimeout: .seconds(30))
        #expect(budget.total == .seconds(50))
        #expect(budget.worker < budget.graceful && budget.graceful < budget.total)
    }

    static func arguments(_ rig: LifecycleRig, shutdownTimeout: String) -> [String] {
        let settings = rig.baseSettings
        return [
            "run", "--bootstrap-servers", settings.bootstrapServers.joined(separator: ","), "--group-id", settings.groupID,
            "--allowed-hosts", "127.0.0.1", "--shutdown-timeout", shutdownTimeout, "--log-level", "info",
            "--set", "topics.requests=\(settings.topics.requests)", "--set", "topics.results=\(settings.topics.results)",
            "--set", "topics.errors=\(settings.topics.errors)", "--set", "workerId=shutdown-test", "--set", "summaryInterval=0",
        ]
    }
}

/// A `query-worker run` child that a test signals and whose exit it awaits without holding a thread.
final class SignalledWorker: Sendable {
    private let child: CapturedChild

    init(executable: String, arguments: [String]) throws {
        child = try CapturedChild([executable] + arguments)
    }

    var isRunning: Bool { child.process.isRunning }

    /// Sends `signal` to this child by its own process id, if it is still running.
    func signal(_ signal: Int32) {
        child.process.signal(signal)
    }

    /// SIGKILL if still running (for `defer`).
    func kill() { signal(SIGKILL) }

    /// The exit status (or the signal that ended it), or nil when it is still running after `timeout` (it is
    /// then killed). Polls without holding a thread.
    func waitForExit(timeout: Duration) async -> Int32? {
        guard await child.process.waitForExit(timeout: timeout) != nil else {
            kill()
            return nil
        }
        return child.process.status
    }

    /// Standard output (JSON log lines) and standard error, for a failing test's report.
    var log: String {
        let (out, err) = (child.standardOutput, child.standardError)
        return out.split(separator: "\n").filter { !$0.contains("librdkafka") && !$0.contains("[thrd:") }.joined(separator: "\n")
            + "\n" + err
    }

    /// How many log lines have exactly this message.
    func count(_ message: String) -> Int {
        child.standardOutput.split(separator: "\n").filter { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return false }
            return object["message"] as? String == message
        }.count
    }

    /// Waits until at least `count` log lines have this message; false when `timeout` passed first.
    func waitForLog(_ message: String, count: Int = 1, timeout: Duration) async -> Bool {
        await poll(timeout: timeout) { self.count(message) >= count }
    }
}

