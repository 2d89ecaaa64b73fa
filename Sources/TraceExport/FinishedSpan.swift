import Tracing
import W3CTraceContext

/// A span that has ended, as the exporter sends it: plain values, no lock, no reference to the live span.
struct FinishedSpan: Sendable {
    var context: TraceContext
    var parentSpanID: SpanID?
    var name: String
    var kind: SpanKind
    var startNanoseconds: UInt64
    var endNanoseconds: UInt64
    var attributes: SpanAttributeList
    var events: [SpanEvent]
    var links: [FinishedLink]
    var status: SpanStatus?
}

/// A link to another span, by its W3C context (a link to a context without one is not kept).
struct FinishedLink: Sendable {
    var context: TraceContext
    var attributes: SpanAttributes
}

/// What every span of one process shares in an export: OpenTelemetry's resource (`service.name`,
/// `service.instance.id`, the SDK's name) and the instrumentation scope.
package struct TraceResource: Sendable, Equatable {
    package var serviceName: String
    package var attributes: [String: String]
    package var scopeName: String

    package init(serviceName: String, attributes: [String: String] = [:], scopeName: String = "feature-query-worker") {
        self.serviceName = serviceName
        self.attributes = attributes
        self.scopeName = scopeName
    }
}
