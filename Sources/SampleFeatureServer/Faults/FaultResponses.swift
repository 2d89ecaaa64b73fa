import Hummingbird
import NIOCore

/// The responses faults put in place of the real one.
enum FaultResponses {
    /// The response for a failure fault; `real` builds the genuine response (needed to truncate it).
    static func response(
        for kind: FaultRule.Kind, real: () async throws -> Response
    ) async throws -> Response {
        switch kind {
        case .http500:
            return .text(HTMLPage.page(title: "500 Internal Server Error", body: "The server encountered an internal error."),
                         status: 500, contentType: HTMLPage.contentType)
        case .http503(let seconds):
            var response = Response.text(
                HTMLPage.page(title: "503 Service Unavailable", body: "The service is temporarily unavailable."),
                status: 503, contentType: HTMLPage.contentType)
            response.headers[.retryAfter] = String(max(0, seconds))
            return response
        case .http429(let seconds):
            var response = Response.text(
                HTMLPage.page(title: "429 Too Many Requests", body: "Rate limit exceeded. Try again later."),
                status: 429, contentType: HTMLPage.contentType)
            response.headers[.retryAfter] = String(max(0, seconds))
            return response
        case .arcgisError:
            let error = ArcGISServiceError(code: 500, message: "Error performing query operation", details: [])
            return .bytes(error.json, contentType: RESTResponseWriter.jsonType)
        case .htmlPage(let status):
            return .text(HTMLPage.signIn, status: status, contentType: HTMLPage.contentType)
        case .truncatedBody:
            return try await truncated(try await real())
        case .hugeBody(let megabytes, let announced):
            return huge(megabytes: megabytes, announced: announced)
        case .latency, .shortPages:
            return try await real()
        }
    }

    /// `megabytes` MiB of JSON that never closes: `{"features":[` then spaces, written one 64 KiB chunk at a
    /// time as the client reads (the writer waits on the connection), so a 100 MB answer costs the server
    /// one chunk of memory. A client that stops reading closes the connection and ends the writer.
    private static func huge(megabytes: Int, announced: Bool) -> Response {
        let chunkSize = 64 << 10
        let total = max(1, megabytes) << 20
        let opening = Array(#"{"features":["#.utf8)
        var headers: HTTPFields = [.contentType: RESTResponseWriter.jsonType]
        if announced { headers[.contentLength] = String(total) }
        return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: announced ? total : nil) { writer in
            let padding = ByteBuffer(repeating: UInt8(ascii: " "), count: chunkSize)
            try await writer.write(ByteBuffer(bytes: opening))
            var remaining = total - opening.count
            while remaining > 0 {
                try Task.checkCancellation()
                try await writer.write(remaining >= chunkSize ? padding : padding.getSlice(at: 0, length: remaining) ?? padding)
                remaining -= chunkSize
            }
            try await writer.finish(nil)
        })
    }

    /// Announces the whole body's length, sends half of it, then closes the connection: a server or
    /// network failing mid-body.
    private static func truncated(_ response: Response) async throws -> Response {
        let bytes = try await response.bodyBytes()
        let announced = max(bytes.count, 2)
        let part = ByteBuffer(bytes: bytes.prefix(announced / 2))
        var headers: HTTPFields = [.contentLength: String(announced)]
        headers[.contentType] = response.headers[.contentType]
        return Response(status: response.status, headers: headers, body: ResponseBody { writer in
            try await writer.write(part)
            // Hummingbird closes the connection where it is when a body fails: the client sees it cut short.
            throw BodyCutShort()
        })
    }

    /// Thrown by a truncated body to close the connection mid-body on purpose.
    struct BodyCutShort: Error {}
}
