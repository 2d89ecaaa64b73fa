/// What the handler answers: status, headers and a body that is either all there or produced over time.
///
/// The server adds `Content-Length` to a ``Body/bytes(_:)`` body, and sends a ``Body/stream(_:)`` body
/// with chunked transfer encoding unless the handler set `Content-Length` itself. Misbehaving servers
/// (slow, truncating, oversized) are written as streams; the static helpers below cover the usual ones.
package struct LoopbackResponse: Sendable {
    /// The response body.
    package enum Body: Sendable {
        /// A body known in full.
        case bytes([UInt8])
        /// A body written piece by piece. Each write returns once the connection takes more bytes, so a
        /// client that stops reading makes the writer wait. If the closure throws, the server closes the
        /// connection where it is: the client sees a body cut short.
        case stream(@Sendable (LoopbackBodyWriter) async throws -> Void)
    }

    /// The status code, sent with NIO's standard reason phrase.
    package var status: Int
    /// Sent as given; `Connection: close` makes the server close the connection after this response.
    package var headers: LoopbackHeaders
    package var body: Body

    /// A response; the default is an empty 200.
    package init(status: Int = 200, headers: LoopbackHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text response, UTF-8.
    package static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// A JSON response from text the caller has already encoded.
    package static func json(_ json: String, status: Int = 200) -> LoopbackResponse {
        text(json, status: status, contentType: "application/json")
    }

    /// A redirect to `location` (absolute or relative, sent as given).
    package static func redirect(to location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Location": location])
    }

    /// A chunked body sent one piece at a time with a pause before each piece after the first: a slow
    /// server, for timeouts and low-speed limits.
    package static func chunks(_ pieces: [[UInt8]], delay: Duration, status: Int = 200, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers, body: .stream { writer in
            for (index, piece) in pieces.enumerated() {
                if index > 0 { try await Task.sleep(for: delay) }
                try await writer.write(piece)
            }
        })
    }

    /// Announces `announcedLength` bytes, sends `bytes` (fewer), then closes the connection: a server or
    /// network failing mid-body.
    package static func truncated(_ bytes: [UInt8], announcedLength: Int, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Content-Length": String(announcedLength)], body: .stream { writer in
            try await writer.write(bytes)
            throw LoopbackResponseCutShort()
        })
    }

    /// `totalBytes` of `block` repeated, in chunks of `chunkSize`, chunked, without `Content-Length`:
    /// bodies of any size without holding them in memory. The default block, bytes 0 to 250, makes the
    /// byte at offset `i` equal `i % 251`, so a reader can check order.
    package static func generated(
        totalBytes: Int,
        chunkSize: Int = 64 * 1024,
        repeating block: [UInt8] = (0..<251).map { UInt8($0) },
        headers: LoopbackHeaders = [:]
    ) -> LoopbackResponse {
        LoopbackResponse(headers: headers, body: .stream { writer in
            var offset = 0
            while offset < totalBytes {
                let count = min(chunkSize, totalBytes - offset)
                try await writer.write(cyclic(block, from: offset, count: count))
                offset += count
            }
        })
    }

    /// `count` bytes of `block` repeated, starting at `offset` of the endless repetition.
    package static func cyclic(_ block: [UInt8], from offset: Int, count: Int) -> [UInt8] {
        guard !block.isEmpty else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var position = offset % block.count
        while bytes.count < count {
            let take = min(block.count - position, count - bytes.count)
            bytes.append(contentsOf: block[position..<(position + take)])
            position = 0
        }
        return bytes
    }
}

/// Thrown by a body producer to close the connection mid-body on purpose; not counted as a failure.
package struct LoopbackResponseCutShort: Error, Sendable {
    package init() {}
}

/// Writes the pieces of a ``LoopbackResponse/Body/stream(_:)`` body. Not `Sendable`: it writes to the one
/// response it was made for, from the producer's own task.
package struct LoopbackBodyWriter {
    let sink: ([UInt8]) async throws -> Void

    /// Sends bytes (as one chunk when the body is chunked). Returns once the connection takes more (its send
    /// buffer is not full), so a paused client holds the producer back; throws when the client has gone.
    package func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }  // an empty chunk would end a chunked body
        try await sink(bytes)
    }

    /// Sends UTF-8 text.
    package func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }
}
