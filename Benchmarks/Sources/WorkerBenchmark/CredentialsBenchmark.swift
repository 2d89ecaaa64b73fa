import ArgumentParser
import BenchmarkSupport
import Foundation
import Logging

/// `credentials`: what a token credential costs the worker, and what a revoked token costs the token service.
struct CredentialsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials",
        abstract: "Requests/s on a secured layer against the same public layer; 1,000 requests meeting a revoked token.",
        discussion: """
            Secured against public: one `--secure` sample server (a portal) serves LA_County_Parcels both \
            publicly and in its Secured folder behind a token. Every worker run is a fresh `query-worker run` \
            with the same settings and the same credentials file (one token credential for the Secured \
            folder, its password in a 0600 file); the runs alternate between --requests ids queries on the \
            secured layer and the same queries on the public one, measured as `throughput` measures them \
            (steady state after --skip outcomes). Target: secured >= --target-ratio x public (medians). The \
            tokens each secured run obtained are read from the server's counters (one per worker process; \
            the sample portal's own server is federated with it, so each is a generateToken and an exchange).

            Revocation (with --revocation-server-url: a `--secure` server holding each query of the secured \
            layer --revocation-latency-ms): a worker with max-in-flight --revocation-in-flight gets its \
            token with one request, then --revocation-in-flight count queries on the secured layer are \
            published; once the worker has started all of them, every token is revoked at the server \
            (POST /_sample/security revokeAll=true, which also zeroes its counters). Reported: the tokens \
            obtained after the revocation (target: 1) and the token-endpoint calls that took, the requests \
            answered 498, the time from the revocation until every outcome is in, and that every outcome \
            succeeded.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "Services URL (…/arcgis/rest/services) of a `--secure` sample server without latency.")
    var serverURL: String

    @Option(help: "That server's process id, for its CPU time.")
    var serverPID: Int32?

    @Option(help: "Services URL of a `--secure` sample server that holds the secured layer's queries (nil: no revocation part).")
    var revocationServerURL: String?

    @Option(help: "How long that server holds each query, in ms (for the report: it is the server's --fault).")
    var revocationLatencyMs: Int = 1_000

    @Option(help: "Requests queued for each throughput run.")
    var requests: Int = 20_000

    @Option(help: "Outcomes left out of the rate at the start (joining, connections, metadata, the first token).")
    var skip: Int = 1_000

    @Option(help: "The worker's max-in-flight for the throughput runs.")
    var maxInFlight: Int = 64

    @Option(help: "The worker's maxRequestsPerHost (HTTP requests in flight to the server).")
    var requestsPerHost: Int = 64

    @Option(help: "Requests in flight when the token is revoked (also the worker's max-in-flight then).")
    var revocationInFlight: Int = 1_000

    @Option(help: "The sample server's user for the token credential.")
    var username: String = "viewer"

    @Option(help: "Its password (a test value; written to a 0600 file for the worker).")
    var password: String = "viewer-password"

    @Option(help: "Target: secured requests/s at least this fraction of public.")
    var targetRatio: Double = 0.95

    @Option(help: "The parts to run, comma-separated: throughput, revocation (which also needs --revocation-server-url).")
    var parts: String = "throughput,revocation"

    func validate() throws {
        guard requests > skip + 1, skip >= 1 else { throw ValidationError("--requests must exceed --skip + 1, --skip >= 1") }
        guard revocationInFlight >= 1 else { throw ValidationError("--revocation-in-flight must be positive") }
    }

    func run() async throws {
        let logger = common.makeLogger()
        let work = try WorkDirectory(common.workDir, prefix: "worker-credentials")
        defer { work.remove() }
        output("worker-benchmark credentials: \(requests) ids queries per run on the secured and the public LA_County_Parcels "
            + "of one server; worker max-in-flight \(maxInFlight), maxRequestsPerHost \(requestsPerHost); \(common.repetitions) "
            + "repetitions, sides alternating; worker CPUs: \(common.pinning ?? "unpinned")")
        let rig = try KafkaRig(linger: .milliseconds(5), logger: logger)
        var passed = true
        let chosen = Set(parts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        do {
            if chosen.contains("throughput") {
                passed = try await compareThroughput(rig: rig, work: work, logger: logger)
            }
            if let revocationServerURL, chosen.contains("revocation") {
                passed = try await measureRevocation(serverURL: revocationServerURL, rig: rig, work: work, logger: logger) && passed
            }
        } catch {
            await rig.shutdown()
            throw error
        }
        await rig.shutdown()
        if common.strict && !passed { throw ExitCode(1) }
    }

    /// Secured against public, alternating; prints each run and the table. Returns whether the target passed.
    private func compareThroughput(rig: KafkaRig, work: WorkDirectory, logger: Logger) async throws -> Bool {
        try await SecurityAdmin.with(serverURL: serverURL, logger: logger) { admin in
            try await compareThroughput(rig: rig, admin: admin, work: work, logger: logger)
        }
    }

    private func compareThroughput(rig: KafkaRig, admin: SecurityAdmin, work: WorkDirectory, logger: Logger) async throws -> Bool {
        let credentialsFile = try BenchmarkCredentials.write(
            serverURL: serverURL, username: username, password: password, folder: work.path, prefix: "throughput")
        let specs = RequestFactory.specs(count: requests)
        func side(_ layerURL: String) -> WorkerThroughputRun {
            let messages = specs.enumerated().map { index, spec in
                let id = "cr-\(index)"
                return (key: id, value: RequestFactory.requestJSON(requestId: id, taskId: id, layerURL: layerURL, spec))
            }
            return WorkerThroughputRun(
                rig: rig, messages: messages, skip: skip, maxInFlight: maxInFlight, queryWorker: common.queryWorker,
                cpus: common.pinning, serverPID: serverPID, workDirectory: work.path,
                extraSettings: ["maxRequestsPerHost=\(requestsPerHost)"], credentialsFile: credentialsFile, logger: logger)
        }
        let secured = side(serverURL + "/Secured/LA_County_Parcels/FeatureServer/0")
        let open = side(serverURL + "/LA_County_Parcels/FeatureServer/0")
        var results = CredentialsResults()
        for repetition in 0..<common.repetitions {
            for securedSide in repetition % 2 == 0 ? [true, false] : [false, true] {
                let name = "cr\(repetition)\(securedSide ? "s" : "p")-\(UUID().uuidString.prefix(6))"
                try await admin.reset()
                let figures = try await (securedSide ? secured : open).run(name)
                let counters = try await admin.counters()
                let label = securedSide ? "secured" : "public "
                output("run \(repetition + 1): \(label): \(format(figures.requestsPerSecond, 0)) requests/s, "
                    + "worker CPU \(format(figures.workerCPUMilliseconds, 3)) ms/request, "
                    + "server CPU \(figures.serverCPUMilliseconds.map { format($0, 3) } ?? "-") ms/request; "
                    + "tokens obtained \(counters.signIns) (token calls \(counters.tokenCalls)), 498s \(counters.rejected498)")
                if securedSide {
                    results.secured.append(figures)
                    results.securedTokens.append(counters.signIns)
                } else {
                    results.open.append(figures)
                    guard counters.tokenCalls == 0 else {
                        throw BenchmarkError("the public run made \(counters.tokenCalls) token calls: the credential's scope covers the public layer")
                    }
                }
            }
        }
        return results.printThroughput(targetRatio: targetRatio, repetitions: common.repetitions)
    }

    /// The revocation runs; prints each and the summary. Returns whether every run made one token call.
    private func measureRevocation(serverURL: String, rig: KafkaRig, work: WorkDirectory, logger: Logger) async throws -> Bool {
        try await SecurityAdmin.with(serverURL: serverURL, logger: logger) { admin in
            try await measureRevocation(serverURL: serverURL, rig: rig, admin: admin, work: work, logger: logger)
        }
    }

    private func measureRevocation(
        serverURL: String, rig: KafkaRig, admin: SecurityAdmin, work: WorkDirectory, logger: Logger
    ) async throws -> Bool {
        let credentialsFile = try BenchmarkCredentials.write(
            serverURL: serverURL, username: username, password: password, folder: work.path, prefix: "revocation")
        output("")
        output("revocation: \(revocationInFlight) count queries in flight on the secured layer (the server holds each "
            + "\(revocationLatencyMs) ms; worker max-in-flight \(revocationInFlight), maxRequestsPerHost \(requestsPerHost)) "
            + "when every token is revoked; \(common.repetitions) runs")
        let run = RevocationRun(
            rig: rig, admin: admin, layerURL: serverURL + "/Secured/LA_County_Parcels/FeatureServer/0", inFlight: revocationInFlight,
            requestsPerHost: requestsPerHost, queryWorker: common.queryWorker, cpus: common.pinning, workDirectory: work.path,
            credentialsFile: credentialsFile, logger: logger)
        var runs: [RevocationRun.Figures] = []
        for repetition in 0..<common.repetitions {
            let figures = try await run.run("rv\(repetition)-\(UUID().uuidString.prefix(6))")
            output("run \(repetition + 1): " + figures.summary)
            runs.append(figures)
        }
        return RevocationRun.Figures.printTable(
            runs, inFlight: revocationInFlight, latencyMs: revocationLatencyMs, requestsPerHost: requestsPerHost)
    }
}
