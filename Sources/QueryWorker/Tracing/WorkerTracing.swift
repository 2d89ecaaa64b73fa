import EngineExecution
import FeatureQuerySupport
import Kafka
import Logging
import Metrics
import Synchronization
import TraceExport
import Tracing
import W3CTraceContext

/// The worker's traces: a consumer span per request message, continuing the message's W3C trace context, and
/// the trace and correlation headers its outcomes carry (``RequestTrace``).
///
/// Propagation is the library's own, not only the tracer's: with no tracer bootstrapped the NoOp tracer's
/// extract and inject do nothing, so a `traceparent` would be dropped. The W3C header is therefore also read
/// here (swift-w3c-trace-context, no dependencies) and written on outcomes when the tracer wrote none, so a
/// worker without an exporter still continues the caller's trace. A bootstrapped tracer (TraceExport's)
/// continues it itself, and its injection wins.
///
/// With the NoOp tracer, or a request the worker's sampler drops, a request costs a non-recording span and, on
/// its outcome, one `traceparent` header (a minted span id); no attribute is computed, and its runs start no
/// layer or HTTP spans (``RequestTrace/withContext(_:)``).
final class WorkerTracing: Sendable {
    static let traceParent = "traceparent"
    static let traceState = "tracestate"
    /// Correlation headers request/reply frameworks set and expect back on the reply: Spring Kafka's
    /// `ReplyingKafkaTemplate` matches replies by `kafka_correlationId` (raw bytes, echoed as they are).
    static let echoedHeaders: Set<String> = ["kafka_correlationId"]

    let groupID: String
    let logger: Logger
    /// Request messages whose `traceparent` or `tracestate` could not be read (they start a new trace).
    private let invalidContexts: Counter
    private let invalidSeen = Atomic<Int>(0)

    /// The worker's own sampling decision (``HeadSampler``), as bootstrapped when the worker was made; nil: the
    /// tracer's sampler decides.
    let headSampler: HeadSampler?

    init(
        groupID: String, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory,
        headSampler: HeadSampler? = HeadSampler.current
    ) {
        self.groupID = groupID
        self.logger = logger
        self.invalidContexts = MetricCatalog.traceContextInvalid.counter(metrics)
        self.headSampler = headSampler
    }

    /// How many messages carried an unreadable trace context so far.
    var invalidContextCount: Int { invalidSeen.load(ordering: .relaxed) }

    /// Starts the request span of a message just read: the message's context continued when it has one.
    /// A request the worker's own sampler drops never reaches the tracer (see ``HeadSampler``).
    func begin(_ message: KafkaConsumerMessage) -> RequestTrace {
        let headers = message.headers
        if let headSampler {
            let incoming = headers.isEmpty ? nil : incomingContext(headers, message)
            // A trace id is minted only for a message that brings none.
            let traceID = incoming?.traceID ?? TraceIDSource.traceID()
            guard headSampler.samples(incoming: incoming, newTraceID: traceID) else {
                let echoed = headers.filter { Self.echoedHeaders.contains($0.key) }
                return RequestTrace(unsampled: incoming, newTraceID: traceID, echoed: echoed)
            }
            // Sampled on `traceID`: a new trace starts with that id, not one the tracer would mint.
            return traced(message, headers, incoming: incoming, startingTraceID: incoming == nil ? traceID : nil)
        }
        return traced(message, headers, incoming: headers.isEmpty ? nil : incomingContext(headers, message), startingTraceID: nil)
    }

    /// The request's span from the tracer, continuing the message's context, or starting the trace
    /// `startingTraceID` (the one the worker's sampler decided on) when it has none. `headers` are the message's,
    /// read once by the caller (each read copies them out of librdkafka).
    private func traced(
        _ message: KafkaConsumerMessage, _ headers: [KafkaHeader], incoming: TraceContext?, startingTraceID: TraceID?
    ) -> RequestTrace {
        var context = ServiceContext.topLevel
        if let startingTraceID { context.startingTraceID = startingTraceID }
        guard !headers.isEmpty else {
            let span = InstalledTracer.startSpan("process \(message.topic)", context: context, ofKind: .consumer)
            if span.isRecording { describe(span, message, correlation: nil) }
            return RequestTrace(span: span, incoming: nil, echoed: [])
        }
        InstalledTracer.extract(headers, into: &context, using: KafkaHeaderExtractor())
        let span = InstalledTracer.startSpan("process \(message.topic)", context: context, ofKind: .consumer)
        let echoed = headers.filter { Self.echoedHeaders.contains($0.key) }
        if span.isRecording { describe(span, message, correlation: echoed.first?.value) }
        return RequestTrace(span: span, incoming: incoming, echoed: echoed)
    }

    /// The message's W3C context, or nil when it has none or an unreadable one (counted, logged once at
    /// notice, then at debug).
    private func incomingContext(_ headers: [KafkaHeader], _ message: KafkaConsumerMessage) -> TraceContext? {
        guard let parent = headers.last(where: { $0.key == Self.traceParent }) else { return nil }
        let state = headers.last(where: { $0.key == Self.traceState })?.stringValue
        do {
            guard let parentText = parent.stringValue else { throw InvalidTraceContext() }
            return try TraceContext(traceParentHeaderValue: parentText, traceStateHeaderValue: state)
        } catch {
            invalidContexts.increment()
            let seen = invalidSeen.add(1, ordering: .relaxed).newValue
            logger.log(
                level: seen == 1 ? .notice : .debug,
                "a request's trace context could not be read; starting a new trace",
                metadata: [
                    "partition": .stringConvertible(message.partition), "offset": .stringConvertible(message.offset),
                    "error": "\(error)", "invalidTraceContexts": .stringConvertible(seen),
                ])
            return nil
        }
    }

    /// OpenTelemetry's messaging attributes for a Kafka consumer span, and the correlation id as
    /// `messaging.message.conversation_id`. One update: a recording span's attributes sit behind a lock, and
    /// each single `span.attributes[key] = value` copies the whole set.
    private func describe(_ span: any Span, _ message: KafkaConsumerMessage, correlation: [UInt8]?) {
        span.setAttributes { attributes in
            attributes.set("messaging.system", "kafka")
            attributes.set("messaging.operation.type", "process")
            attributes.set("messaging.operation.name", "process")
            attributes.set("messaging.destination.name", message.topic)
            attributes.set("messaging.destination.partition.id", String(message.partition))
            attributes.set("messaging.kafka.offset", Int(message.offset))
            attributes.set("messaging.consumer.group.name", groupID)
            if let size = message.value?.count { attributes.set("messaging.message.body.size", size) }
            if let correlation { attributes.set("messaging.message.conversation_id", Self.text(correlation)) }
        }
    }

    /// Bytes as text: UTF-8 when they are, else lowercase hex (Spring's correlation ids are 16 raw bytes).
    static func text(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 0xF)]) }
        return text
    }
}

/// A `traceparent` header whose bytes are not text.
private struct InvalidTraceContext: Error, CustomStringConvertible {
    var description: String { "traceparent is not UTF-8 text" }
}
