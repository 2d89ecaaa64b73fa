import Hummingbird
import Logging
internal import NIOCore
internal import NIOHTTP1

extension LoopbackResponse {
    /// Hummingbird's response: the status with NIO's standard reason phrase (a code outside 100...999, which
    /// HTTP can't carry, becomes 500), the headers as given, and the body. A `.bytes` body gets
    /// `Content-Length` unless the handler set it; a `.stream` body goes out chunked unless the handler set
    /// `Content-Length`. A HEAD response keeps the headers and drops the body.
    func hummingbirdResponse(isHead: Bool, connection: LoopbackConnection, logger: Logger, path: String) -> Response {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for field in headers {
            guard let name = HTTPFields.Element.Name(field.name) else { continue }
            fields.append(HTTPFields.Element(name: name, value: field.value))
        }
        let code = (100...999).contains(status) ? status : 500
        let status = HTTPResponse.Status(code: code, reasonPhrase: HTTPResponseStatus(statusCode: code).reasonPhrase)
        switch body {
        case .bytes(let bytes):
            guard !isHead else {
                if !headers.contains("Content-Length") { fields[.contentLength] = String(bytes.count) }
                return Response(status: status, headers: fields)
            }
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .stream(let produce):
            guard !isHead else { return Response(status: status, headers: fields) }
            return Response(status: status, headers: fields, body: ResponseBody { writer in
                let sink = BodySink(writer)
                do {
                    try await produce(LoopbackBodyWriter { try await sink.write($0) })
                } catch let error as BodySink.ClientGone {
                    throw error
                } catch {
                    // Throwing closes the connection where it is: the client sees the body cut short.
                    connection.closeOnPurpose()
                    if !(error is LoopbackResponseCutShort) {
                        logger.debug("loopback body producer failed", metadata: ["error": "\(error)", "path": "\(path)"])
                    }
                    throw error
                }
                try await sink.finish()
            })
        }
    }
}

/// Hummingbird's body writer, held so that a ``LoopbackBodyWriter`` (which stores its sink) can write to it.
/// Used by one task only: the body closure that creates it, while it awaits the producer.
private final class BodySink {
    /// A write failed: the client has gone.
    struct ClientGone: Error {}

    private var writer: any ResponseBodyWriter

    init(_ writer: any ResponseBodyWriter) {
        self.writer = writer
    }

    func write(_ bytes: [UInt8]) async throws {
        do {
            try await writer.write(ByteBuffer(bytes: bytes))
        } catch {
            throw ClientGone()
        }
    }

    func finish() async throws {
        let writer = self.writer
        try await writer.finish(nil)
    }
}
