import FeatureQuerySupport
import Foundation
import JSONLogging
import Kafka
import Logging
import SampleFeatureServer
import ServiceLifecycle
import Synchronization
import Testing

@testable import QueryWorker
import CurlHTTP
import WorkerTestSupport

/// Issue 15, "logs stay the first tool": what an on-call person reads in the worker's JSON lines, checked on
/// the lines the production handler writes, against a real embedded cluster and sample server (or a closed
/// port for the unreachable cluster).
@Suite struct WorkerOperationsLogTests {
    /// 300 requests wait behind 4 hanging ones: the summary's lag counts them against the committed offset
    /// (nothing is committed), as a probe of the group sees it, not against the consumer's read-ahead position.
    @Test func theSummaryShowsABacklogAsLagAgainstTheCommittedOffset() async throws {
        let capture = JSONLineCapture()
        let harness = try await WorkerHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")],
            configure: { settings in
                settings.limits.maxInFlight = 4
                settings.limits.lowMark = 2
                settings.summaryInterval = .seconds(1)
            },
            logger: capture.logger())
        try await sendBacklog(harness, prefix: "backlog", count: 300)

        // Once the 4 requests run and the consumer has read ahead (a lag refresh may come before its first fetch).
        let (partition, summary) = try await capture.summary(within: .seconds(60)) {
            $0["consumerLag"] == .number(300) && $0["readAhead"] != nil && $0["requestsInFlight"] == .number(4)
        }
        #expect(partition.partition == 0)
        let fields = summary["partitions"]?[partition.description]
        #expect(capture.lines("failed").isEmpty, "\(capture.lines("failed").prefix(2))")
        #expect(capture.lines("rejected").isEmpty, "\(capture.lines("rejected").prefix(2))")
        #expect(fields?["endOffset"] == .number(300))
        #expect(fields?["committedOffset"] == nil, "nothing is committed yet")
        #expect(fields?["requestsInFlight"] == .number(4))
        #expect(summary["requestsInFlight"] == .number(4))
        #expect(summary["consumerLag"] == .number(300))
        #expect(summary["kafka"] == .string("up"))
        #expect(summary["intakePaused"] == .bool(true))
        #expect(summary["answeredPerSecond"] == .number(0))
        #expect(summary["errorRate"] == .number(0))
        if case .number(let readAhead)? = fields?["readAhead"] { #expect(readAhead >= 4) } else { Issue.record("no readAhead: \(summary)") }
        if case .number(let age)? = summary["oldestAgeMs"] { #expect(age > 0) } else { Issue.record("no oldestAgeMs: \(summary)") }

        // What the group holds, seen from outside the worker.
        let probe = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: harness.settings.bootstrapServers),
                groupID: harness.settings.groupID, topics: [partition.topic]),
            logger: WorkerHarness.logger)
        #expect(try await probe.committedOffsets(for: [partition]).isEmpty)
        let reader = try KafkaPartitionReader(
            client: KafkaClientConfiguration(bootstrapServers: harness.settings.bootstrapServers), logger: WorkerHarness.logger)
        #expect(try await reader.endOffsets(of: [partition], timeout: .seconds(10)) == [partition: 300])

        try await harness.stop()
        // The Kafka module reports rebalances at debug; the worker's lines are the only ones at info.
        #expect(capture.lines("partitions assigned").count == 1)
        #expect(capture.lines("partitions revoked").count == 1)
    }

    /// Once every request is answered and committed, the summary's lag is 0 and its committed offset is the
    /// group's, as a probe reads it.
    @Test func theSummaryShowsNoLagOnceEverythingIsCommitted() async throws {
        let capture = JSONLineCapture()
        let harness = try await WorkerHarness(configure: { $0.summaryInterval = .seconds(1) }, logger: capture.logger())
        try await sendBacklog(harness, prefix: "drained", count: 300)
        let outcomes = try await harness.outcomes(300)
        #expect(outcomes.allSatisfy { $0.status == "succeeded" })

        let (partition, summary) = try await capture.summary(within: .seconds(60)) {
            $0["consumerLag"] == .number(0) && $0["committedOffset"] == .number(300)
        }
        #expect(summary["partitions"]?[partition.description]?["endOffset"] == .number(300))
        let probe = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: harness.settings.bootstrapServers),
                groupID: harness.settings.groupID, topics: [partition.topic]),
            logger: WorkerHarness.logger)
        #expect(try await probe.committedOffsets(for: [partition]) == [partition: 300])
        try await harness.stop()
    }

    /// An engine's retry line names the request and run it belongs to (``RequestLogContext``).
    @Test func anEngineRetryLineCarriesTheRequestAndRun() async throws {
        let capture = JSONLineCapture()
        let harness = try await WorkerHarness(
            faults: [FaultRule(.http503(retryAfterSeconds: 0), pathContains: "USA/MapServer/2/query", trigger: .first(1))],
            logger: capture.logger())
        try await harness.send("r-retry", WorkerHarness.request("r-retry", url: harness.url(.states)))
        let outcomes = try await harness.outcomes(1)
        #expect(outcomes.first?.status == "succeeded")
        try await harness.stop()

        let retries = capture.lines("retrying an ArcGIS request")
        #expect(retries.count == 1)
        let started = capture.lines("started").filter { $0["requestId"] == .string("r-retry") }
        #expect(started.count == 1)
        #expect(retries.first?["requestId"] == .string("r-retry"))
        #expect(retries.first?["taskId"] == .string("r-retry"))
        #expect(retries.first?["run"] != nil && retries.first?["run"] == started.first?["run"])
    }

    /// The same for the OGC API engine.
    @Test func anOGCRetryLineCarriesTheRequestAndRun() async throws {
        let capture = JSONLineCapture()
        let harness = try await WorkerHarness(
            faults: [FaultRule(.http503(retryAfterSeconds: 0), pathContains: "/ogc/collections/USA_States/items", trigger: .first(1))],
            logger: capture.logger())
        try await harness.send("r-ogc", WorkerHarness.ogcRequest(
            "r-ogc", landing: harness.server.ogcURL, collection: try WorkerHarness.collection(.states)))
        let outcomes = try await harness.outcomes(1)
        #expect(outcomes.first?.status == "succeeded")
        try await harness.stop()

        let retries = capture.lines("retrying an OGC API request")
        let started = capture.lines("started").filter { $0["requestId"] == .string("r-ogc") }
        #expect(retries.count == 1)
        #expect(retries.first?["requestId"] == .string("r-ogc"))
        #expect(retries.first?["run"] != nil && retries.first?["run"] == started.first?["run"])
    }

    /// The worker's own delivery retry names the request whose outcome it sends again, numbers as numbers.
    @Test func aDeliveryRetryLineCarriesTheRequest() async throws {
        let capture = JSONLineCapture()
        let harness = try await WorkerHarness(
            configure: { $0.kafkaProperties["message.timeout.ms"] = "1000" }, logger: capture.logger())
        // As in WorkerDeliveryTests: held at the server until the errors are queued, so the result is the next
        // Produce request, and twenty retriable errors take librdkafka past its message timeout.
        harness.server.setFaults([FaultRule(.latency(milliseconds: 500), pathContains: "MapServer/2/query")])
        try await harness.send("r-delivery", WorkerHarness.request("r-delivery", url: harness.url(.states)))
        harness.cluster.pushRequestErrors(.produce, Array(repeating: .notEnoughReplicas, count: 20))
        let outcomes = try await harness.outcomes(1)
        #expect(outcomes.first?.status == "succeeded")
        try await harness.stop()

        let retries = capture.lines("publishing an outcome failed; sending it again")
        #expect(!retries.isEmpty)
        #expect(retries.allSatisfy { $0["requestId"] == .string("r-delivery") && $0["taskId"] == .string("r-delivery") })
        #expect(retries.first?["retryInMs"] == .number(1000))
        if case .number? = retries.first?["offset"] {} else { Issue.record("offset is not a number: \(retries)") }
    }

    /// With nothing listening at the bootstrap address the worker waits, correctly, without a timeout, and
    /// says so at every interval; each client's librdkafka failure is one line, named by client.
    @Test func anUnreachableClusterIsReportedPeriodically() async throws {
        let capture = JSONLineCapture()
        let suffix = String(UUID().uuidString.prefix(8))
        var settings = WorkerSettings()
        settings.bootstrapServers = ["127.0.0.1:1"]  // loopback port 1: refused at once
        settings.groupID = "unreachable-\(suffix)"
        settings.workerID = "unreachable"
        settings.topics.requests = "requests-\(suffix)"
        settings.topics.results = "results-\(suffix)"
        settings.topics.errors = "errors-\(suffix)"
        settings.summaryInterval = .seconds(1)
        settings.timeouts.shutdown = .seconds(1)
        let logger = capture.logger()
        let assembly = try WorkerAssembly(settings: settings, logger: logger)
        assembly.worker.core.kafkaWaitWarningInterval.withLock { $0 = .seconds(1) }
        let group = assembly.serviceGroup(handlesSignals: false, logger: logger)
        let running = Task { try await group.run() }
        // Until four warnings and a summary are out (a second apart when the machine is idle; no bound on a busy
        // one but the test's own).
        let deadline = ContinuousClock.now + .seconds(60)
        while capture.lines("waiting for the Kafka cluster").count < 4 || capture.lines("summary").isEmpty,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(100))
        }
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        await assembly.httpClient.shutdown()

        let warnings = capture.lines("waiting for the Kafka cluster")
        #expect(warnings.count >= 4, "\(capture.text)")
        #expect(warnings.allSatisfy { $0["level"] == .string("warning") && $0["bootstrapServers"] == .string("127.0.0.1:1") })
        let codes = Set(warnings.dropFirst().compactMap { $0["lastError.code"] })
        #expect(!codes.isEmpty && codes.isSubset(of: [.string("_TRANSPORT"), .string("_ALL_BROKERS_DOWN")]), "\(codes)")
        #expect(warnings.last?["kafka"] == .string("down"))
        #expect(capture.lines("summary").last?["kafka"] == .string("down"))

        // librdkafka's FAIL log lines are debug now: the error callback's line is the one kept.
        #expect(capture.all.filter { $0["librdkafka.facility"] == .string("FAIL") }.isEmpty)
        let errors = capture.lines("librdkafka error").filter { $0["level"] == .string("warning") }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0["kafka.client"] != nil })
        var seen: [String: Int] = [:]
        for line in errors {
            let client = line["kafka.client"].map { "\($0)" } ?? ""
            let code = line["error.code"].map { "\($0)" } ?? ""
            seen["\(client) \(code)", default: 0] += 1
        }
        #expect(seen.values.allSatisfy { $0 == 1 }, "one warning per client and error: \(seen)")
    }

    /// Joining the group takes the embedded coordinator seconds (3 s, and the JoinGroup answer is held 6 s more
    /// here, so that a loaded test process still sees several of the check's 300 ms ticks within it): with a
    /// short interval the worker says it waits (`joining`), then that the cluster is reachable again, once.
    @Test func aSlowGroupJoinIsReportedAndSoIsItsEnd() async throws {
        let capture = JSONLineCapture()
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: WorkerHarness.logger)
        try cluster.pushResponseDelays(.joinGroup, [.seconds(6)])
        let suffix = String(UUID().uuidString.prefix(8))
        let settings = try WorkerHarness.settings(for: cluster, suffix: suffix, workerID: "slow-join", requestPartitions: 1)
        let logger = capture.logger()
        let assembly = try WorkerAssembly(settings: settings, logger: logger)
        assembly.worker.core.kafkaWaitWarningInterval.withLock { $0 = .milliseconds(300) }
        let group = assembly.serviceGroup(handlesSignals: false, logger: logger)
        let running = Task { try await group.run() }
        let back = await poll(timeout: .seconds(60)) { !capture.lines("Kafka cluster reachable again").isEmpty }
        try await Task.sleep(for: .seconds(1))  // no second notice, no warning after it
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        await assembly.httpClient.shutdown()

        #expect(back, "\(capture.text)")
        let waiting = capture.lines("waiting for the Kafka cluster")
        let notices = capture.lines("Kafka cluster reachable again")
        #expect(!waiting.isEmpty)
        #expect(waiting.allSatisfy { $0["kafka"] == .string("joining") && $0["joinedGroup"] == .bool(false) })
        #expect(notices.count == 1)
        #expect(notices.first?["level"] == .string("notice"))
        if case .number(let downFor)? = notices.first?["downForMs"] { #expect(downFor >= 300) } else { Issue.record("\(notices)") }
        if case .string(let lastWarning)? = waiting.last?["ts"], case .string(let notice)? = notices.first?["ts"] {
            #expect(lastWarning < notice, "no warning once the group is joined")
        }
    }

    private func sendBacklog(_ harness: WorkerHarness, prefix: String, count: Int) async throws {
        let messages = (0..<count).map { index in
            // All in partition 0; each keyed by its task, as the contract asks.
            KafkaProducerMessage(
                topic: harness.settings.topics.requests, partition: 0, key: "\(prefix)-\(index)",
                value: WorkerHarness.request("\(prefix)-\(index)", task: "\(prefix)-\(index)", url: harness.url(.states)))
        }
        for result in await harness.producer.send(messages) { _ = try result.get() }
    }
}

/// Every line a worker wrote, as the production handler (``JSONLogHandler``) writes it.
final class JSONLineCapture: Sendable {
    private let written = Mutex<[String]>([])

    func logger(level: Logger.Level = .info) -> Logger {
        let sink = JSONLogSink { line in self.written.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }
        var logger = Logger(label: "worker-operations") { JSONLogHandler(label: $0, sink: sink) }
        logger.logLevel = level
        return logger
    }

    var text: [String] { written.withLock { $0 } }
    var all: [ParsedJSON] { text.compactMap { try? ParsedJSON(reading: $0) } }
    func lines(_ message: String) -> [ParsedJSON] { all.filter { $0["message"] == .string(message) } }

    /// The first summary line with a partition whose fields satisfy `condition`, with that partition; polled.
    func summary(
        within limit: Duration, where condition: (ParsedJSON) -> Bool
    ) async throws -> (KafkaTopicPartition, ParsedJSON) {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            for line in lines("summary") {
                guard case .object(let partitions)? = line["partitions"] else { continue }
                for (name, fields) in partitions where condition(fields) {
                    if let partition = KafkaTopicPartition(parsing: name) { return (partition, line) }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("no summary line as expected within \(limit): \(lines("summary").suffix(3))")
        throw CancellationError()
    }
}

extension KafkaTopicPartition {
    /// Reads the summary's `topic[partition]` key.
    init?(parsing text: String) {
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "["),
            let number = Int32(text[text.index(after: open)..<text.index(before: text.endIndex)])
        else { return nil }
        self.init(topic: String(text[..<open]), partition: number)
    }
}
