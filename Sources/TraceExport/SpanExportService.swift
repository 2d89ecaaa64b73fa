package import CurlHTTP
package import Logging
import ServiceLifecycle
import Synchronization

/// Sends the tracer's ended spans to an OTLP/HTTP collector (`POST`, `application/x-protobuf`), a batch at a
/// time: when ``TraceExportConfiguration/maxExportBatchSize`` spans are queued, and every
/// ``TraceExportConfiguration/scheduleDelay`` otherwise. Run it first in the service group, so that it stops
/// last: on graceful shutdown it sends what every other service's spans left in the queue, then stops.
///
/// A failed export is not retried (the next batch is already filling); its spans are counted as lost and the
/// failure logged once per failing streak, so a collector that is down costs a log line, not a log flood.
package final class SpanExportService: Service {
    package let tracer: BatchingTracer
    private let configuration: TraceExportConfiguration
    private let client: HTTPClient
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let lost = Atomic<Int>(0)

    /// Spans that reached the exporter but not the collector (failed exports), once ``run()`` has returned.
    package var spansLostInExport: Int { lost.load(ordering: .acquiring) }

    package init(configuration: TraceExportConfiguration, logger: Logger) throws(HTTPError) {
        self.configuration = configuration
        self.logger = logger
        let queue = SpanQueue(capacity: configuration.maxQueueSize, batchSize: configuration.maxExportBatchSize)
        self.tracer = BatchingTracer(queue: queue, sampler: configuration.sampler)
        var http = HTTPClientConfiguration()
        http.maxConnections = 2
        http.maxConnectionsPerHost = 1
        http.timeout = configuration.exportTimeout
        self.client = try HTTPClient(configuration: http, logger: logger)
    }

    package func run() async {
        let queue = tracer.queue
        let delay = configuration.scheduleDelay
        var exporter = Exporter(configuration: configuration, client: client, logger: logger)
        await withDiscardingTaskGroup { group in
            group.addTask {
                // The schedule: one wake per delay, whatever the traffic.
                while (try? await Task.sleep(for: delay)) != nil { queue.wake() }
            }
            await withGracefulShutdownHandler {
                while !stopping.load(ordering: .acquiring) && !Task.isCancelled {
                    let everything = await queue.waitForWake()
                    await exporter.send(queue, everything: everything)
                }
            } onGracefulShutdown: {
                self.stopping.store(true, ordering: .releasing)
                queue.wake()
            }
            group.cancelAll()
        }
        await exporter.send(queue, everything: true)
        lost.store(exporter.lost, ordering: .releasing)
        let counts = queue.counts
        logger.info(
            "span export stopped",
            metadata: [
                "spansQueued": .stringConvertible(counts.accepted), "spansDroppedQueueFull": .stringConvertible(counts.dropped),
                "spansLostInExport": .stringConvertible(exporter.lost),
            ])
        await client.shutdown()
    }
}

/// The export loop's own state: one task owns it.
private struct Exporter {
    let configuration: TraceExportConfiguration
    let client: HTTPClient
    let logger: Logger
    private(set) var lost = 0
    private var failing = false

    init(configuration: TraceExportConfiguration, client: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.client = client
        self.logger = logger
    }

    /// Sends the queued spans a batch per request: every one, or (woken by a full batch) full batches only.
    mutating func send(_ queue: SpanQueue, everything: Bool) async {
        while true {
            let batch = queue.take(upTo: configuration.maxExportBatchSize, whole: !everything)
            guard !batch.isEmpty else { return }
            await send(batch)
        }
    }

    private mutating func send(_ batch: [FinishedSpan]) async {
        let body = OTLPTraceRequest.encode(batch, resource: configuration.resource)
        let request = HTTPRequest(
            method: .post, url: configuration.endpoint, headers: ["Content-Type": "application/x-protobuf"], body: body)
        do {
            let response = try await client.execute(request)
            guard (200..<300).contains(response.status) else {
                failed(batch.count, reason: "the collector answered HTTP \(response.status)")
                return
            }
            if failing {
                failing = false
                logger.notice("span export works again", metadata: ["otlpEndpoint": .string(configuration.endpoint)])
            }
        } catch {
            failed(batch.count, reason: "\(error)")
        }
    }

    private mutating func failed(_ spans: Int, reason: String) {
        lost += spans
        logger.log(
            level: failing ? .debug : .warning, "spans could not be exported; they are dropped",
            metadata: [
                "otlpEndpoint": .string(configuration.endpoint), "error": .string(reason),
                "spans": .stringConvertible(spans), "spansLostInExport": .stringConvertible(lost),
            ])
        failing = true
    }
}
