/// What the handler answers: status, headers and a body that is either all there or produced over time.
///
/// The server adds `Content-Length` to a ``Body/bytes(_:)`` body, and sends a ``Body/stream(_:)`` body
/// with chunked transfer encoding unless the handler set `Content-Length` itself. Misbehaving servers
/// (slow, truncating, oversized) are written as streams; the static helpers below cover the usual ones.
public struct LoopbackResponse: Sendable {
    /// The response body.
    public enum Body: Sendable {
        /// A body known in full.
        case bytes([UInt8])
        /// A body written piece by piece. Each write returns once the bytes are handed to the kernel, so a
        /// client that stops reading makes the writer wait. If the closure throws, the server closes the
        /// connection where it is: the client sees a body cut short.
        case stream(@Sendable (LoopbackBodyWriter) async throws -> Void)
    }

    public var status: Int
    public var headers: LoopbackHeaders
    public var body: Body

    public init(status: Int = 200, headers: LoopbackHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text response, UTF-8.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// A JSON response from text the caller has already encoded.
    public static func json(_ json: String, status: Int = 200) -> LoopbackResponse {
        text(json, status: status, contentType: "application/json")
    }

    /// A redirect to `location` (absolute or relative, sent as given).
    public static func redirect(to location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Location": location])
    }

    /// A chunked body sent one piece at a time with a pause before each piece after the first: a slow
    /// server, for timeouts and low-speed limits.
    public static func chunks(_ pieces: [[UInt8]], delay: Duration, status: Int = 200, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers, body: .stream { writer in
            for (index, piece) in pieces.enumerated() {
                if index > 0 { try await Task.sleep(for: delay) }
                try await writer.write(piece)
            }
        })
    }

    /// Announces `announcedLength` bytes, sends `bytes` (fewer), then closes the connection: a server or
    /// network failing mid-body.
    public static func truncated(_ bytes: [UInt8], announcedLength: Int, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Content-Length": String(announcedLength)], body: .stream { writer in
            try await writer.write(bytes)
            throw LoopbackResponseCutShort()
        })
    }

    /// `totalBytes` of `pattern(offset)` bytes in chunks of `chunkSize`, chunked, without `Content-Length`:
    /// bodies of any size without holding them in memory.
    public static func generated(
        totalBytes: Int,
        chunkSize: Int = 64 * 1024,
        headers: LoopbackHeaders = [:],
        pattern: @escaping @Sendable (Int) -> UInt8 = { UInt8(truncatingIfNeeded: $0 % 251) }
    ) -> LoopbackResponse {
        LoopbackResponse(headers: headers, body: .stream { writer in
            var offset = 0
            while offset < totalBytes {
                let count = min(chunkSize, totalBytes - offset)
                let start = offset
                try await writer.write((0..<count).map { pattern(start + $0) })
                offset += count
            }
        })
    }
}

/// Thrown by a body producer to close the connection mid-body on purpose; not counted as a failure.
public struct LoopbackResponseCutShort: Error, Sendable {
    public init() {}
}

/// Writes the pieces of a ``LoopbackResponse/Body/stream(_:)`` body.
public struct LoopbackBodyWriter: Sendable {
    let sink: @Sendable ([UInt8]) async throws -> Void

    /// Sends bytes (as one chunk when the body is chunked). Returns once they are in the kernel's socket
    /// buffer, so a paused client holds the producer back; throws when the client has gone.
    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }  // an empty chunk would end a chunked body
        try await sink(bytes)
    }

    /// Sends UTF-8 text.
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }
}
