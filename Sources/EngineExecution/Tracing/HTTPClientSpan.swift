package import CurlHTTP
import TraceExport
import Tracing

extension HTTPClient {
    /// ``HTTPClient/execute(_:)`` in a client span named after the method (OpenTelemetry's HTTP client
    /// conventions): `http.request.method`, `server.address`, `server.port`, `url.scheme`,
    /// `http.response.status_code`, and `error.type` (the status code for 4xx/5xx, the client's error code for
    /// transport failures). Never `url.full`: URLs carry tokens (see ``TracedURL``); and a failure's message is
    /// not recorded either (libcurl's may name the URL), only its code.
    ///
    /// One span per exchange: retries, token refreshes and paging each get their own. Under a request whose
    /// span does not record (``UnrecordedTrace``: not sampled, or no tracer bootstrapped) no span is started;
    /// a span that does not record otherwise gets no attribute computed.
    package func tracedExecute(_ request: HTTPRequest) async throws -> HTTPResponse {
        if UnrecordedTrace.isCurrent { return try await execute(request) }
        let span = InstalledTracer.startSpan(request.method.rawValue, ofKind: .client)
        defer { span.end() }
        guard span.isRecording else { return try await execute(request) }
        HTTPClientSpan.describe(request, on: span)
        do {
            let response = try await execute(request)
            HTTPClientSpan.describe(response, on: span)
            return response
        } catch let error as HTTPError {
            HTTPClientSpan.failed(span, type: error.code.rawValue)
            throw error
        } catch {
            HTTPClientSpan.failed(span, type: EngineSpans.errorType(error))
            throw error
        }
    }
}

/// The attributes of an HTTP client span (see ``HTTPClient/tracedExecute(_:)``).
package enum HTTPClientSpan {
    // Each phase sets its attributes in one update: a recording span keeps them behind a lock, and every
    // single `span.attributes[key] = value` reads, copies and writes back the whole set.
    static func describe(_ request: HTTPRequest, on span: any Span) {
        span.setAttributes { attributes in
            attributes.set("http.request.method", request.method.rawValue)
            guard let url = TracedURL(request.url) else { return }
            attributes.set("url.scheme", url.scheme)
            attributes.set("server.address", url.host)
            if let port = url.port { attributes.set("server.port", port) }
        }
    }

    static func describe(_ response: HTTPResponse, on span: any Span) {
        guard response.status >= 400 else {
            span.setAttributes { $0.set("http.response.status_code", response.status) }
            return
        }
        span.setAttributes { attributes in
            attributes.set("http.response.status_code", response.status)
            attributes.set("error.type", String(response.status))
        }
        span.setStatus(SpanStatus(code: .error))
    }

    static func failed(_ span: any Span, type: String) {
        span.setAttributes { $0.set("error.type", type) }
        span.setStatus(SpanStatus(code: .error))
    }
}
