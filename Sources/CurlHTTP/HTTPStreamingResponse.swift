/// A response whose body arrives in chunks as the server sends it, for bodies too large to hold at once.
/// Memory stays bounded: when the reader falls behind, the transfer is paused until it catches up.
/// Dropping the response or cancelling the reading task aborts the transfer. `package`: only this package's
/// tests stream so far (``HTTPClient/stream(_:)``).
package final class HTTPStreamingResponse: Sendable {
    package struct Head: Sendable, Hashable {
        package var status: Int
        package var headers: HTTPHeaders
        package var url: String
        package var httpVersion: String
    }

    package let head: Head
    package var status: Int { head.status }
    package var headers: HTTPHeaders { head.headers }
    let sink: CurlResponseSink

    init(head: Head, sink: CurlResponseSink) {
        self.head = head
        self.sink = sink
    }

    deinit { sink.abandon() }

    /// The body's chunks, in order. Read it once.
    package var body: Body { Body(sink: sink) }

    /// Reads the whole remaining body (bounded by the client's `maxResponseSize`).
    package func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body { bytes.append(contentsOf: chunk) }
        return bytes
    }

    package struct Body: AsyncSequence, Sendable {
        package typealias Element = [UInt8]
        let sink: CurlResponseSink

        package func makeAsyncIterator() -> Iterator { Iterator(sink: sink) }

        package struct Iterator: AsyncIteratorProtocol {
            let sink: CurlResponseSink
            package mutating func next() async throws -> [UInt8]? { try await sink.nextChunk() }
        }
    }
}
