package import Hummingbird

extension Response {
    /// A UTF-8 text answer.
    package static func text(
        _ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON answer from text the caller has encoded.
    package static func json(_ json: String, status: HTTPResponse.Status = .ok) -> Response {
        text(json, status: status, contentType: "application/json")
    }

    /// An answer with `bytes` as its body.
    package static func bytes(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
