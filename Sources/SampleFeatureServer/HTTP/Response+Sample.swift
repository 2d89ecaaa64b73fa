import Hummingbird
import NIOCore
import NIOHTTP1

extension Response {
    /// A body known in full: Hummingbird sends it with `Content-Length`, keeping the connection alive.
    static func bytes(_ bytes: [UInt8], status: Int = 200, contentType: String) -> Response {
        Response(status: .sample(status), headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A text response, UTF-8.
    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: .sample(status), headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The whole body's bytes (a fault that cuts a real response short needs them).
    func bodyBytes() async throws -> [UInt8] {
        let collected = CollectedBody()
        try await body.write(BodyCollector(collected: collected))
        return Array(collected.buffer.readableBytesView)
    }
}

extension HTTPResponse.Status {
    /// A status by code with its standard reason phrase; a code HTTP can't carry becomes 500.
    static func sample(_ code: Int) -> HTTPResponse.Status {
        let code = (100...999).contains(code) ? code : 500
        return HTTPResponse.Status(code: code, reasonPhrase: HTTPResponseStatus(statusCode: code).reasonPhrase)
    }
}

/// The bytes a ``BodyCollector`` gathered; used by the one task that collects them.
private final class CollectedBody {
    var buffer = ByteBuffer()
}

/// A body writer that keeps what it is given instead of sending it.
private struct BodyCollector: ResponseBodyWriter {
    let collected: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
