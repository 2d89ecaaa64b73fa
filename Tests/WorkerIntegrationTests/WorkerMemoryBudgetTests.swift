import Foundation
import SampleFeatureServer
import Testing
import QueryWorker
import WorkerTestSupport

/// Issue 11, item 1.4, end to end: a `query-worker run` process answers `features` with geometry and
/// `maxFeatures: 100000000` on a 150,000-parcel layer (about 75 MB of GeoJSON, and more than twice that held by
/// the old worker) within its result budget. Measured in a child process, so the peak RSS (`VmHWM`) is the
/// worker's alone, not the parallel test suites'.
@Suite("Worker memory budget")
struct WorkerMemoryBudgetTests {
    static let parcelCount = 150_000
    static let budget = 8 << 20
    static let maxResultBytes = 1 << 20

    @Test func aRequestForEveryParcelWithGeometryStaysWithinTheBudget() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let rig = try await LifecycleRig(partitions: 1)
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: Self.parcelCount, seed: 7),
            dataset: try SampleDataset.shared(parcelCount: Self.parcelCount, seed: 7), logger: LifecycleRig.logger)
        let settings = rig.baseSettings
        let workerID = "budget-\(UUID().uuidString.prefix(8))"
        let worker = try WorkerProcess(executable: executable, arguments: [
            "run", "--bootstrap-servers", settings.bootstrapServers.joined(separator: ","), "--group-id", settings.groupID,
            "--allowed-hosts", "127.0.0.1", "--shutdown-timeout", "2s", "--log-level", "info",
            "--max-result-total-bytes", "\(Self.budget)", "--max-result-bytes", "\(Self.maxResultBytes)",
            "--set", "topics.requests=\(settings.topics.requests)", "--set", "topics.results=\(settings.topics.results)",
            "--set", "topics.errors=\(settings.topics.errors)", "--set", "workerId=\(workerID)", "--set", "summaryInterval=0",
        ])
        defer { worker.kill() }
        let joined = await poll(timeout: .seconds(60)) { !worker.assignment.isEmpty }
        try #require(joined, "the worker joined its group: \(worker.stderr)")
        let pid = try #require(Self.pid(withArgument: "workerId=\(workerID)"), "the worker's process was not found")
        let before = try #require(Self.peakRSS(of: pid))

        let query = #"{"returnGeometry":true,"maxFeatures":100000000,"result":"features"}"#
        try await rig.send([(key: "budget", json: LifecycleRig.request(
            "budget-1", task: "budget", url: server.layerURL(.parcels), query: query))])
        #expect(await rig.waitForAnswers(to: ["budget-1"], timeout: .seconds(180)), "\(worker.stderr)")
        #expect(try await rig.barrier())
        let after = try #require(Self.peakRSS(of: pid))

        let parts = rig.outcomes.filter { $0.requestId == "budget-1" }
        #expect(parts.allSatisfy { $0.status == "succeeded" }, "a truncated result, not an error: \(parts)")
        // The budget's worth of features in 1 MiB parts, not the whole layer's (over 75 parts).
        #expect(parts.count >= 1 && parts.count <= Self.budget / Self.maxResultBytes + 2, "\(parts.count) parts")
        // What the result holds, plus pages in flight (6 pages of 2,000 parcels: ~2 MB of body and GeoJSON
        // each), the encoded parts and the allocator's slack; the whole layer alone is 75 MB.
        let growth = after - before
        #expect(growth <= Self.budget + (40 << 20), "peak RSS grew by \(growth >> 20) MiB")
        print("""
            budget \(Self.budget >> 20) MiB, 150,000 parcels with geometry: \(parts.count) result parts; worker peak RSS \
            \(before >> 20) MiB before the request, \(after >> 20) MiB after (+\(growth >> 20) MiB)
            """)
        #expect(await worker.terminate(timeout: .seconds(30)))
        await server.shutdown()
        try await rig.stop()
    }

    /// The process whose command line holds `argument`.
    static func pid(withArgument argument: String) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.contains(argument) { return pid }
        }
        return nil
    }

    /// `VmHWM` (peak resident set size) of a process, in bytes.
    static func peakRSS(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib * 1024 }
        }
        return nil
    }
}
