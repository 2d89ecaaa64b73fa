/// A response whose body arrives in chunks as the server sends it, for bodies too large to hold at once.
/// Memory stays bounded: when the reader falls behind, the transfer is paused until it catches up.
/// Dropping the response or cancelling the reading task aborts the transfer.
public final class HTTPStreamingResponse: Sendable {
    public struct Head: Sendable, Hashable {
        public var status: Int
        public var headers: HTTPHeaders
        public var url: String
        public var httpVersion: String
    }

    public let head: Head
    public var status: Int { head.status }
    public var headers: HTTPHeaders { head.headers }
    let sink: CurlResponseSink

    init(head: Head, sink: CurlResponseSink) {
        self.head = head
        self.sink = sink
    }

    deinit { sink.abandon() }

    /// The body's chunks, in order. Read it once.
    public var body: Body { Body(sink: sink) }

    /// Reads the whole remaining body (bounded by the client's `maxResponseSize`).
    public func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body { bytes.append(contentsOf: chunk) }
        return bytes
    }

    public struct Body: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        let sink: CurlResponseSink

        public func makeAsyncIterator() -> Iterator { Iterator(sink: sink) }

        public struct Iterator: AsyncIteratorProtocol {
            let sink: CurlResponseSink
            public mutating func next() async throws -> [UInt8]? { try await sink.nextChunk() }
        }
    }
}
