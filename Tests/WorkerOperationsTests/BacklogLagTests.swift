import Foundation
import Kafka
import Logging
import QueryWorker
import SampleFeatureServer
import Synchronization
import Testing

/// Issue 15, item 4: with a real backlog, the lag against the committed offset is the same number in the
/// summary log line, the `query_worker_consumer_lag` metric and the status page (one source: the worker's
/// partition lag monitor).
@Suite(.serialized)
struct BacklogLagTests {
    @Test func aBacklogShowsTheSameLagInTheLogTheMetricAndThePage() async throws {
        let summaries = SummaryRecorder()
        let harness = try await OperationsHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")],
            configure: { settings in
                settings.limits.maxInFlight = 4
                settings.limits.lowMark = 2
                settings.summaryInterval = .seconds(1)
            },
            workerLogger: summaries.logger())
        let backlog = 200
        let messages = (0..<backlog).map { index in
            KafkaProducerMessage(
                topic: harness.settings.topics.requests, partition: 0, key: "lag-\(index)",
                value: OperationsHarness.request("lag-\(index)", url: harness.server.layerURL(.states)))
        }
        for result in await harness.producer.send(messages) { _ = try result.get() }

        // Nothing is answered (the service holds every query) and nothing committed: the lag is the backlog.
        let status = try await harness.waitForStatus { status in
            status.partitions.first { $0.partition == 0 }?.lag == Int64(backlog) && status.inFlight.count == 4
        }
        let partition = try #require(status.partitions.first { $0.partition == 0 })
        #expect(partition.lag == Int64(backlog))
        #expect(partition.committed == nil)
        #expect(partition.end == Int64(backlog))

        // The metric: the lag monitor's refresh sets the gauge; wait for a scrape that has it.
        var scraped: Double?
        let deadline = ContinuousClock.now + .seconds(30)
        while scraped != Double(backlog), ContinuousClock.now < deadline {
            scraped = Self.consumerLag(in: try await harness.get("/metrics").body, topic: harness.settings.topics.requests, partition: 0)
            if scraped != Double(backlog) { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(scraped == Double(backlog), "query_worker_consumer_lag for partition 0")

        // The page.
        let page = StatusPageDOM(html: try await harness.get("/").body)
        let row = page.rows("partitions").first { $0["partition"] == "0" }
        #expect(row?["lag"] == "\(backlog)")

        // The log: a summary line with the same total lag (the other partitions are empty).
        let logged = try await summaries.waitForLag(Int64(backlog), within: .seconds(30))
        #expect(logged == Int64(backlog))
        try await harness.stop()
    }

    /// The value of `query_worker_consumer_lag{topic=…,partition=…}` in an exposition, or nil.
    static func consumerLag(in exposition: String, topic: String, partition: Int) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix("query_worker_consumer_lag{") {
            guard line.contains(#"topic="\#(topic)""#), line.contains(#"partition="\#(partition)""#),
                let value = line.split(separator: " ").last
            else { continue }
            return Double(value)
        }
        return nil
    }
}

/// Keeps the `consumerLag` of every `summary` line a worker logs.
final class SummaryRecorder: Sendable {
    private let lags = Mutex<[Int64]>([])

    func logger() -> Logger {
        var logger = Logger(label: "backlog-lag") { _ in SummaryHandler(recorder: self) }
        logger.logLevel = .info
        return logger
    }

    fileprivate func record(_ lag: Int64) { lags.withLock { $0.append(lag) } }

    /// Waits for a summary line whose `consumerLag` is `expected`; the last one seen.
    func waitForLag(_ expected: Int64, within timeout: Duration) async throws -> Int64? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lags.withLock({ $0.contains(expected) }) { return expected }
            try await Task.sleep(for: .milliseconds(100))
        }
        return lags.withLock { $0.last }
    }
}

private struct SummaryHandler: LogHandler {
    let recorder: SummaryRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.message.description == "summary", let value = event.metadata?["consumerLag"],
            let lag = Int64(value.description)
        else { return }
        recorder.record(lag)
    }
}
