import TraceExport
import Tracing

/// The engines' internal spans: one per layer or collection a request queries, parent of that layer's HTTP
/// client spans (``HTTPClient/tracedExecute(_:)``).
package enum EngineSpans {
    /// Runs `body` in an internal span `query layer` with `query_worker.engine` (`arcgis`, `ogc`) and
    /// `query_worker.layer.url` (the layer's URL without query string or user information).
    ///
    /// A failure sets the span's status and `error.type` (``errorType(_:)``), never the error's message: the
    /// engines redact their messages, but a span is no place to rely on it.
    /// `errorCode` names a failure by the engine's own error code (else ``errorType(_:)``).
    ///
    /// Under a request whose span does not record (``UnrecordedTrace``) no span is started.
    package static func layer<T>(
        _ url: String, engine: String, errorCode: (any Error) -> String? = { _ in nil }, _ body: () async throws -> T
    ) async throws -> T {
        if UnrecordedTrace.isCurrent { return try await body() }
        let span = InstalledTracer.startSpan("query layer", ofKind: .internal)
        defer { span.end() }
        guard span.isRecording else { return try await body() }
        span.setAttributes { attributes in
            attributes.set("query_worker.engine", engine)
            attributes.set("query_worker.layer.url", TracedURL.withoutQuery(url))
        }
        do {
            return try await ServiceContext.withValue(span.context) { try await body() }
        } catch {
            let type = errorCode(error) ?? errorType(error)
            span.setAttributes { $0.set("error.type", type) }
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// A bounded name for an error no engine code names (OpenTelemetry's `error.type`): `cancelled` for
    /// cancellation, else the type's name. Never the message.
    package static func errorType(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        return String(describing: type(of: error))
    }
}
