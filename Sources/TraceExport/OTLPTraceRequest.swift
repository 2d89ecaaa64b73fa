import Tracing
import W3CTraceContext

/// OTLP's `ExportTraceServiceRequest` (opentelemetry-proto, `collector/trace/v1`) for one batch of spans of
/// one resource and scope, in protobuf's binary form: the body of a `POST /v1/traces` with
/// `Content-Type: application/x-protobuf`. Field numbers are those of `trace/v1/trace.proto`,
/// `common/v1/common.proto` and `resource/v1/resource.proto`.
enum OTLPTraceRequest {
    static func encode(_ spans: [FinishedSpan], resource: TraceResource) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 256 + spans.count * 320)
        writer.message(1) { resourceSpans in  // ExportTraceServiceRequest.resource_spans
            resourceSpans.message(1) { resourceMessage in  // ResourceSpans.resource
                keyValue(&resourceMessage, 1, "service.name", .string(resource.serviceName))
                keyValue(&resourceMessage, 1, "telemetry.sdk.name", .string("query-worker"))
                keyValue(&resourceMessage, 1, "telemetry.sdk.language", .string("swift"))
                for (key, value) in resource.attributes.sorted(by: { $0.key < $1.key }) {
                    keyValue(&resourceMessage, 1, key, .string(value))
                }
            }
            resourceSpans.message(2) { scopeSpans in  // ResourceSpans.scope_spans
                scopeSpans.message(1) { $0.string(1, resource.scopeName) }  // ScopeSpans.scope
                for span in spans {
                    scopeSpans.message(2) { write(span, to: &$0) }  // ScopeSpans.spans
                }
            }
        }
        return writer.bytes
    }

    /// `trace.v1.Span`.
    private static func write(_ span: FinishedSpan, to writer: inout ProtobufWriter) {
        writer.bytes(1, traceIDBytes(span.context.traceID))
        writer.bytes(2, spanIDBytes(span.context.spanID))
        if let state = span.context.traceStateHeaderValue, !state.isEmpty { writer.string(3, state) }
        if let parent = span.parentSpanID { writer.bytes(4, spanIDBytes(parent)) }
        writer.string(5, span.name)
        writer.varint(6, kindNumber(span.kind))
        writer.fixed64(7, span.startNanoseconds)
        writer.fixed64(8, span.endNanoseconds)
        for (key, value) in span.attributes.pairs { keyValue(&writer, 9, key, value) }
        for event in span.events {
            writer.message(11) { eventMessage in
                eventMessage.fixed64(1, event.nanosecondsSinceEpoch)
                eventMessage.string(2, event.name)
                event.attributes.forEach { key, value in keyValue(&eventMessage, 3, key, value) }
            }
        }
        for link in span.links {
            writer.message(13) { linkMessage in
                linkMessage.bytes(1, traceIDBytes(link.context.traceID))
                linkMessage.bytes(2, spanIDBytes(link.context.spanID))
                if let state = link.context.traceStateHeaderValue, !state.isEmpty { linkMessage.string(3, state) }
                link.attributes.forEach { key, value in keyValue(&linkMessage, 4, key, value) }
            }
        }
        if let status = span.status {
            writer.message(15) { statusMessage in
                if let message = status.message, !message.isEmpty { statusMessage.string(2, message) }
                statusMessage.varint(3, status.code == .ok ? 1 : 2)  // STATUS_CODE_OK, STATUS_CODE_ERROR
            }
        }
    }

    /// `SpanKind`'s numbers: internal 1, server 2, client 3, producer 4, consumer 5.
    static func kindNumber(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    /// `common.v1.KeyValue` as field `field` of the message being written.
    private static func keyValue(_ writer: inout ProtobufWriter, _ field: UInt32, _ key: String, _ value: SpanAttribute) {
        writer.message(field) { keyValue in
            keyValue.string(1, key)
            keyValue.message(2) { anyValue(&$0, value) }
        }
    }

    /// `common.v1.AnyValue`: string 1, bool 2, int 3, double 4, array 5 (`ArrayValue.values` 1).
    private static func anyValue(_ writer: inout ProtobufWriter, _ value: SpanAttribute) {
        switch value {
        case .int32(let number): writer.int64(3, Int64(number))
        case .int64(let number): writer.int64(3, number)
        case .double(let number): writer.double(4, number)
        case .bool(let flag): writer.bool(2, flag)
        case .string(let text): writer.string(1, text)
        case .stringConvertible(let convertible): writer.string(1, convertible.description)
        case .int32Array(let numbers): array(&writer, numbers.map { .int64(Int64($0)) })
        case .int64Array(let numbers): array(&writer, numbers.map { .int64($0) })
        case .doubleArray(let numbers): array(&writer, numbers.map { .double($0) })
        case .boolArray(let flags): array(&writer, flags.map { .bool($0) })
        case .stringArray(let texts): array(&writer, texts.map { .string($0) })
        case .stringConvertibleArray(let items): array(&writer, items.map { .string($0.description) })
        default: writer.string(1, "\(value)")
        }
    }

    private static func array(_ writer: inout ProtobufWriter, _ values: [SpanAttribute]) {
        writer.message(5) { array in
            for value in values { array.message(1) { anyValue(&$0, value) } }
        }
    }

    private static func traceIDBytes(_ id: TraceID) -> [UInt8] {
        let b = id.bytes
        return [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7, b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15]
    }

    private static func spanIDBytes(_ id: SpanID) -> [UInt8] {
        let b = id.bytes
        return [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7]
    }
}
