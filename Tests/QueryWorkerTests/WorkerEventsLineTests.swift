import JSONLogging
import Logging
import Synchronization
import Testing

@testable import QueryWorker
import Kafka
import FeatureService
@testable import RequestContract

/// Lines a sink received, in memory.
private final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    var sink: JSONLogSink { JSONLogSink { line in self.lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } } }
    /// The lines without their `ts` member (the two paths take the clock at different instants).
    var withoutTimestamps: [String] {
        lines.withLock { $0 }.map { line in
            guard let comma = line.firstIndex(of: ","), line.hasPrefix("{\"ts\":") else { return line }
            return "{" + line[line.index(after: comma)...]
        }
    }
}

/// Hides the JSON handler from ``WorkerEvents``, which then logs through `Logger` metadata: the general path.
private struct Opaque: LogHandler {
    var inner: JSONLogHandler
    var logLevel: Logger.Level { get { inner.logLevel } set { inner.logLevel = newValue } }
    var metadata: Logger.Metadata { get { inner.metadata } set { inner.metadata = newValue } }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
    func log(event: LogEvent) { inner.log(event: event) }
}

/// The status lines ``WorkerEvents`` writes straight into bytes (``JSONStatusLine``) must be the lines the handler
/// writes for the same fields as metadata, byte for byte (but the timestamp).
@Suite("Worker events: status lines written directly equal the handler's")
struct WorkerEventsLineTests {
    static let source = MessageSource(topic: "requests", partition: 7, offset: 1_234_567, key: Array("task \"1\"".utf8))
    static let request = QueryRequest(
        requestId: "r-1?token=s3cret", taskId: "task \"1\"", receivedAt: 1_000, targets: [.arcgis(url: "https://a/0", layers: nil)],
        query: QuerySpec())
    static let pending = PendingRequest(
        request: request, source: source, position: MessagePosition(.init(topic: "requests", partition: 7), offset: 1_234_567))

    static func outcomes() -> [OutcomeMessage] {
        let layers = [
            ServiceLayerOutcome(url: "https://a/0", outcome: .succeeded(count: 42, complete: true, selection: .countOnly)),
            ServiceLayerOutcome(url: "https://a/1", outcome: .failed(FeatureServiceError(.notFound, "gone", layer: "https://a/1"))),
        ]
        let result = ResultMessage(
            requestId: request.requestId, taskId: request.taskId, layers: layers, receivedAt: 1_000, finishedAt: 1_500,
            worker: "w")
        let rejected = RejectedRequest(code: .invalidJSON, message: "bad: password=hunter2 \u{1}", requestId: "r-2")
        return [
            .result(result),
            .error(.rejected(rejected, source: source, worker: "w", receivedAt: 900, finishedAt: 950)),
            .error(.rejected(RejectedRequest(code: .invalidJSON, message: "no ids"), source: source, worker: "w", receivedAt: 5, finishedAt: 6)),
            .error(.superseded(request, by: "r-9", source: source, worker: "w", finishedAt: 2_000)),
            .error(.expired(request, source: source, worker: "w", finishedAt: 3_000)),
        ]
    }

    /// Every per-request line, through `events`.
    static func logAll(_ events: WorkerEvents) {
        events.received(pending)
        events.started(pending, run: RunID(UInt64.max))
        events.started(pending, run: RunID(3))
        for outcome in outcomes() { events.delivered(outcome, source: source, nowMs: 10_000) }
        // Before receipt: a negative duration is written as zero.
        events.delivered(outcomes()[0], source: source, nowMs: 0)
    }

    @Test("each line equals the general path's", arguments: [Logger.Level.info, .notice, .error])
    func sameLines(level: Logger.Level) {
        let direct = Lines()
        let general = Lines()
        var fast = JSONLogHandler(label: "query-worker", sink: direct.sink)
        fast.logLevel = level
        var slow = JSONLogHandler(label: "query-worker", sink: general.sink)
        slow.logLevel = level
        Self.logAll(WorkerEvents(logger: Logger(label: "query-worker") { _ in fast }))
        Self.logAll(WorkerEvents(logger: Logger(label: "query-worker") { _ in Opaque(inner: slow) }))
        let expected = general.withoutTimestamps
        #expect(direct.withoutTimestamps == expected)
        #expect(expected.count == (level == .info ? 9 : level == .notice ? 4 : 0))
        #expect(!expected.joined().contains("s3cret") && !expected.joined().contains("hunter2"))
    }

    @Test("a handler with metadata of its own takes the general path, its members in order")
    func handlerMetadata() {
        let direct = Lines()
        var handler = JSONLogHandler(label: "query-worker", sink: direct.sink)
        handler.metadata = ["pod": "p-1"]
        Self.logAll(WorkerEvents(logger: Logger(label: "query-worker") { _ in handler }))
        let lines = direct.withoutTimestamps
        #expect(lines.count == 9)
        #expect(lines.allSatisfy { $0.contains(#""partition":"7","pod":"p-1","#) })
    }
}
