import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `memory`: the worker's peak RSS with --in-flight requests in flight at once.
struct MemoryBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Peak RSS (VmHWM) of a query-worker process holding 1,000 requests in flight.",
        discussion: """
            Give it a sample server whose parcels queries are delayed (e.g. --fault \
            latency:ms=600000,path=FeatureServer/0/query), so no request finishes. A fresh `query-worker run` \
            (max-in-flight = --in-flight) joins its group; its idle VmHWM is read; then --in-flight ids \
            queries for different tasks are published, and once the worker has logged "started" for every \
            one of them and --settle-seconds have passed, its VmHWM and VmRSS are read from \
            /proc/PID/status (VmHWM, not ru_maxrss, which Linux carries across execve). The engine sends at \
            most 16 requests to one host at a time: the rest of the runs wait for a slot, in flight as far \
            as the worker is concerned. The sample server's own figures are printed for scale.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The (delaying) sample server's services URL.")
    var serverURL: String

    @Option(help: "The sample server's process id, for its figures.")
    var serverPID: Int32?

    @Option(help: "Requests in flight (the worker's max-in-flight too).")
    var inFlight: Int = 1_000

    @Option(help: "Seconds to wait after the last request started, before reading the figures.")
    var settleSeconds: Int = 2

    @Option(help: "Target: the worker's peak RSS below this, in MB (10^6 bytes).")
    var targetMB: Double = 150

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-memory")
        defer { work.remove() }
        let layerURL = serverURL + "/LA_County_Parcels/FeatureServer/0"
        output("worker-benchmark memory: \(inFlight) ids queries in flight (all delayed at the server) in one worker "
            + "(max-in-flight \(inFlight)); \(common.repetitions) runs; worker CPUs: \(common.pinning ?? "unpinned")")
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        var runs: [MemoryRun] = []
        do {
            for repetition in 0..<common.repetitions {
                let run = try await measure("mem\(repetition)-\(UUID().uuidString.prefix(6))", rig: rig, layerURL: layerURL, work: work, logger: logger)
                output("run \(repetition + 1): " + run.summary(inFlight: inFlight))
                runs.append(run)
            }
        } catch {
            await rig.shutdown()
            throw error
        }
        await rig.shutdown()
        let passed = MemoryRun.printTable(runs, inFlight: inFlight, targetMB: targetMB, serverPeakKiB: serverPID.flatMap(ProcessStats.peakRSSKiB(pid:)))
        if common.strict && !passed { throw ExitCode(1) }
    }

    private func measure(_ name: String, rig: KafkaRig, layerURL: String, work: WorkDirectory, logger: Logger) async throws -> MemoryRun {
        let topics = try rig.makeTopics(name, requestPartitions: 3)
        let worker = try WorkerChild(WorkerChild.Configuration(
            queryWorker: common.queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(name)", topics: topics,
            maxInFlight: inFlight, cpus: common.pinning, logFile: "\(work.path)/\(name).log"))
        let log = WorkerLog(path: worker.logFile)
        do {
            try await log.wait(for: 1, message: "partitions assigned", timeout: .seconds(60)) { try worker.checkAlive("at start") }
            try await Task.sleep(for: .seconds(1))
            let idle = ProcessStats.peakRSSKiB(pid: worker.pid) ?? 0
            let specs = RequestFactory.specs(count: inFlight, seed: 7)
            let messages = specs.enumerated().map { index, spec in
                let id = "\(name)-\(index)"
                return (key: id, value: RequestFactory.requestJSON(requestId: id, taskId: id, layerURL: layerURL, spec))
            }
            let published = ContinuousClock.now
            try await rig.publish(messages, topic: topics.requests)
            try await log.wait(for: inFlight, message: "started", timeout: .seconds(300)) { try worker.checkAlive("while starting requests") }
            let allStarted = ContinuousClock.now - published
            try await Task.sleep(for: .seconds(settleSeconds))
            try worker.checkAlive("while requests were in flight")
            let answered = log.count(message: "succeeded") + log.count(message: "failed")
            guard answered == 0 else { throw BenchmarkError("\(answered) requests finished: the server does not delay queries") }
            let run = MemoryRun(
                idlePeakKiB: idle, peakKiB: ProcessStats.peakRSSKiB(pid: worker.pid) ?? 0,
                rssKiB: ProcessStats.rssKiB(pid: worker.pid) ?? 0, startSeconds: allStarted.seconds,
                serverRSSKiB: serverPID.flatMap(ProcessStats.rssKiB(pid:)))
            await worker.stop()
            return run
        } catch {
            await worker.stop()
            throw error
        }
    }
}

/// What one memory run measured, in KiB.
struct MemoryRun {
    var idlePeakKiB: Int
    var peakKiB: Int
    var rssKiB: Int
    /// From publishing the requests to the last "started" line seen.
    var startSeconds: Double
    var serverRSSKiB: Int?

    func summary(inFlight: Int) -> String {
        "worker idle VmHWM \(mb(idlePeakKiB)) MB; with \(inFlight) in flight VmHWM \(mb(peakKiB)) MB, VmRSS \(mb(rssKiB)) MB "
            + "(\(format(Double(peakKiB - idlePeakKiB) * 1024 / Double(inFlight) / 1000, 1)) kB per request); all started "
            + "\(format(startSeconds, 2)) s after publishing"
    }

    private func mb(_ kib: Int) -> String { format(megabytes(kib: Double(kib)), 1) }

    /// The medians and the verdict; returns whether the target passed.
    static func printTable(_ runs: [MemoryRun], inFlight: Int, targetMB: Double, serverPeakKiB: Int?) -> Bool {
        func med(_ figure: (MemoryRun) -> Int) -> Double { megabytes(kib: median(runs.map { Double(figure($0)) })) }
        output("")
        output("Memory with \(inFlight) requests in flight, MB (10^6 bytes), median of \(runs.count) run\(runs.count == 1 ? "" : "s")")
        let header = ["process".padding(44), "VmHWM idle".leftPadding(10), "VmHWM".leftPadding(8), "VmRSS".leftPadding(8)]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        output([
            "worker (query-worker run)".padding(44), format(med(\.idlePeakKiB), 1).leftPadding(10),
            format(med(\.peakKiB), 1).leftPadding(8), format(med(\.rssKiB), 1).leftPadding(8),
        ].joined(separator: " | "))
        let serverRSS = runs.compactMap(\.serverRSSKiB)
        output([
            "sample server (info; holds its dataset)".padding(44), "-".leftPadding(10),
            (serverPeakKiB.map { format(megabytes(kib: Double($0)), 1) } ?? "-").leftPadding(8),
            (serverRSS.isEmpty ? "-" : format(megabytes(kib: median(serverRSS.map(Double.init))), 1)).leftPadding(8),
        ].joined(separator: " | "))
        let peak = med(\.peakKiB)
        let passed = peak < targetMB
        output("")
        output("worker peak RSS with \(inFlight) in flight: \(format(peak, 1)) MB  -> \(passed ? "PASS" : "FAIL") (target < \(format(targetMB, 0)) MB)")
        if let serverPeakKiB, serverPeakKiB > 0 {
            output("(info) worker / sample server peak RSS: \(format(peak / megabytes(kib: Double(serverPeakKiB)), 2))x; "
                + "per request in flight: \(format((peak - med(\.idlePeakKiB)) * 1000 / Double(inFlight), 1)) kB above the idle worker")
        }
        output("(the worker's CPU time per request is in the throughput table: client CPU ms/req)")
        return passed
    }
}
