import LoopbackHTTP

/// The responses faults put in place of the real one.
enum FaultResponses {
    /// The response for a failure fault; `real` builds the genuine response (needed to truncate it).
    static func response(
        for kind: FaultRule.Kind, real: () async throws -> LoopbackResponse
    ) async throws -> LoopbackResponse {
        switch kind {
        case .http500:
            return .text(HTMLPage.page(title: "500 Internal Server Error", body: "The server encountered an internal error."),
                         status: 500, contentType: HTMLPage.contentType)
        case .http503(let seconds):
            var response = LoopbackResponse.text(
                HTMLPage.page(title: "503 Service Unavailable", body: "The service is temporarily unavailable."),
                status: 503, contentType: HTMLPage.contentType)
            response.headers.add("Retry-After", String(max(0, seconds)))
            return response
        case .http429(let seconds):
            var response = LoopbackResponse.text(
                HTMLPage.page(title: "429 Too Many Requests", body: "Rate limit exceeded. Try again later."),
                status: 429, contentType: HTMLPage.contentType)
            response.headers.add("Retry-After", String(max(0, seconds)))
            return response
        case .arcgisError:
            let error = ArcGISServiceError(code: 500, message: "Error performing query operation", details: [])
            return LoopbackResponse(status: 200, headers: ["Content-Type": RESTResponseWriter.jsonType], body: .bytes(error.json))
        case .htmlPage(let status):
            return .text(HTMLPage.signIn, status: status, contentType: HTMLPage.contentType)
        case .truncatedBody:
            let response = try await real()
            guard case .bytes(let bytes) = response.body else { return response }
            let announced = max(bytes.count, 2)
            var cut = LoopbackResponse.truncated(Array(bytes.prefix(announced / 2)), announcedLength: announced, status: response.status)
            if let type = response.headers["Content-Type"] { cut.headers.add("Content-Type", type) }
            return cut
        case .latency, .shortPages:
            return try await real()
        }
    }
}
