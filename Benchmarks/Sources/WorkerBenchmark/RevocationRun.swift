import BenchmarkSupport
import Foundation
import Logging

/// One revocation run: a fresh worker gets its token, `inFlight` count queries on the secured layer are
/// started (the server holds each), every token is revoked at the server, and the run waits for every
/// outcome. What it costs: token calls after the revocation (one, if the worker shares one refresh among
/// every request the 498s reach), and the time until all succeeded.
struct RevocationRun {
    /// What a run measured.
    struct Figures {
        /// Tokens obtained from the revocation to the last outcome (password sign-ins).
        var tokens: Int
        /// Calls to the token endpoints in that time (a sign-in, and an exchange for a federated server).
        var tokenCalls: Int
        /// Secured requests answered 498 in that time.
        var rejected498: Int
        /// Requests whose outcome had not arrived when the tokens were revoked.
        var inFlightAtRevocation: Int
        /// From the revocation to the last outcome, in seconds (every outcome succeeded, or the run failed).
        var secondsUntilAllSucceeded: Double

        var summary: String {
            "\(inFlightAtRevocation) in flight at the revocation; tokens obtained \(tokens) (token calls \(tokenCalls)), "
                + "\(rejected498) requests answered 498; all succeeded \(format(secondsUntilAllSucceeded, 2)) s after the revocation"
        }

        /// The medians and the verdict; returns whether every run obtained exactly one token.
        static func printTable(_ runs: [Figures], inFlight: Int, latencyMs: Int, requestsPerHost: Int) -> Bool {
            let maximum = runs.map(\.tokens).max() ?? 0
            let minimum = runs.map(\.tokens).min() ?? 0
            let passed = maximum == 1 && minimum == 1
            // Each query is held `latencyMs`, at most `requestsPerHost` at a time: the server's latency alone
            // needs about this long for them (more for those answered 498 and asked again).
            let floor = Double(inFlight) / Double(requestsPerHost) * Double(latencyMs) / 1e3
            output("")
            output("Revocation with \(inFlight) requests in flight, \(runs.count) run\(runs.count == 1 ? "" : "s")")
            let calls = runs.map(\.tokenCalls)
            output("tokens obtained after the revocation: \(minimum == maximum ? "\(maximum)" : "\(minimum)-\(maximum)") "
                + "(token-endpoint calls \(calls.min() ?? 0)-\(calls.max() ?? 0): a sign-in, and the exchange for a federated server)  -> "
                + "\(passed ? "PASS" : "FAIL") (target 1)")
            output("time from the revocation until all succeeded: median \(format(median(runs.map(\.secondsUntilAllSucceeded)), 2)) s "
                + "(for scale: \(inFlight) queries held \(latencyMs) ms each, \(requestsPerHost) at a time, take \(format(floor, 1)) s); "
                + "requests answered 498: median \(format(median(runs.map { Double($0.rejected498) }), 0)); every outcome succeeded")
            return passed
        }
    }

    /// How long the token is held before the revocation: past the worker's fresh-token window (10 s).
    static let tokenAge: Duration = .seconds(12)

    let rig: KafkaRig
    let admin: SecurityAdmin
    let layerURL: String
    let inFlight: Int
    let requestsPerHost: Int
    let queryWorker: String
    let cpus: String?
    let workDirectory: String
    let credentialsFile: String
    let logger: Logger

    func run(_ name: String) async throws -> Figures {
        let topics = try rig.makeTopics(name, requestPartitions: 3)
        let reader = try OutcomeReader(rig: rig, topics: topics, logger: logger)
        guard await reader.waitAssigned(timeout: .seconds(30)) else {
            await reader.stop()
            throw BenchmarkError("the outcome reader was assigned no partitions in 30 s")
        }
        let worker: WorkerChild
        do {
            worker = try WorkerChild(WorkerChild.Configuration(
                queryWorker: queryWorker, bootstrapServers: rig.bootstrapServers, groupID: "workers-\(name)", topics: topics,
                maxInFlight: inFlight, cpus: cpus, logFile: "\(workDirectory)/\(name).log",
                extraSettings: ["maxRequestsPerHost=\(requestsPerHost)"], credentialsFile: credentialsFile))
        } catch {
            await reader.stop()
            throw error
        }
        do {
            let figures = try await measure(name, worker, reader, topics: topics)
            await worker.stop()
            await reader.stop()
            return figures
        } catch {
            await worker.stop()
            await reader.stop()
            throw error
        }
    }

    private func measure(_ name: String, _ worker: WorkerChild, _ reader: OutcomeReader, topics: BenchmarkTopics) async throws -> Figures {
        let log = WorkerLog(path: worker.logFile)
        try await log.wait(for: 1, message: "partitions assigned", timeout: .seconds(60)) { try worker.checkAlive("at start") }
        // One request first: the worker gets its token and the layer's metadata.
        let specs = RequestFactory.specs(count: inFlight + 1, seed: 11)
        let messages = specs.enumerated().map { index, spec in
            let id = "\(name)-\(index)"
            return (key: id, value: RequestFactory.requestJSON(requestId: id, taskId: id, layerURL: layerURL, spec, result: "count"))
        }
        try await rig.publish([messages[0]], topic: topics.requests)
        try await waitFor(1, reader, worker)
        // The worker takes a token refused within 10 s of its issue for a misconfiguration (a wrong referer,
        // say): `credential_rejected`, no refresh. A revocation is a later event: let the token age first.
        try await Task.sleep(for: Self.tokenAge)
        try await rig.publish(Array(messages.dropFirst()), topic: topics.requests)
        try await log.wait(for: inFlight + 1, message: "started", timeout: .seconds(120)) { try worker.checkAlive("while starting requests") }
        let revokedAt = ContinuousClock.now
        _ = try await admin.revokeAllAndReset()
        let done = reader.count - 1
        try await waitFor(inFlight + 1, reader, worker)
        let counters = try await admin.counters()
        let outcomes = reader.outcomes
        let notSucceeded = outcomes.filter { $0.status != "succeeded" }
        guard notSucceeded.isEmpty else {
            let sample = notSucceeded.prefix(5).map { "\($0.requestId): \($0.status)" }.joined(separator: ", ")
            throw BenchmarkError("\(notSucceeded.count) of \(outcomes.count) requests did not succeed (\(sample)); log: \(worker.logFile)")
        }
        let last = outcomes.map(\.arrived).max() ?? revokedAt
        return Figures(
            tokens: counters.signIns, tokenCalls: counters.tokenCalls, rejected498: counters.rejected498, inFlightAtRevocation: inFlight - done,
            secondsUntilAllSucceeded: (last - revokedAt).seconds)
    }

    private func waitFor(_ count: Int, _ reader: OutcomeReader, _ worker: WorkerChild) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await reader.wait(for: count, timeout: .seconds(1), interval: .milliseconds(2))) {
            try worker.checkAlive("after \(reader.count) of \(count) outcomes")
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(reader.count) of \(count) outcomes in 600 s; log: \(worker.logFile)")
            }
        }
    }
}
