package import CurlHTTP
import Tracing

extension HTTPClient {
    /// ``HTTPClient/execute(_:)`` in a client span named after the method (OpenTelemetry's HTTP client
    /// conventions): `http.request.method`, `server.address`, `server.port`, `url.scheme`,
    /// `http.response.status_code`, and `error.type` (the status code for 4xx/5xx, the client's error code for
    /// transport failures). Never `url.full`: URLs carry tokens (see ``TracedURL``); and a failure's message is
    /// not recorded either (libcurl's may name the URL), only its code.
    ///
    /// One span per exchange: retries, token refreshes and paging each get their own. With no tracer
    /// bootstrapped (the NoOp tracer) the span is not recording and no attribute is computed.
    package func tracedExecute(_ request: HTTPRequest) async throws -> HTTPResponse {
        let span = startSpan(request.method.rawValue, ofKind: .client)
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
    static func describe(_ request: HTTPRequest, on span: any Span) {
        span.attributes["http.request.method"] = request.method.rawValue
        guard let url = TracedURL(request.url) else { return }
        span.attributes["url.scheme"] = url.scheme
        span.attributes["server.address"] = url.host
        if let port = url.port { span.attributes["server.port"] = port }
    }

    static func describe(_ response: HTTPResponse, on span: any Span) {
        span.attributes["http.response.status_code"] = response.status
        if response.status >= 400 { failed(span, type: String(response.status)) }
    }

    static func failed(_ span: any Span, type: String) {
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error))
    }
}
