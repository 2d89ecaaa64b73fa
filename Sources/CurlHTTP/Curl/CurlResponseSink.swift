import DequeModule
import Synchronization

/// Where a transfer's response goes, and the one place its outcome is handed over (exactly once).
///
/// Buffered: the whole response resumes one continuation. Streaming: the head resumes the caller once the
/// first body bytes (or the end) arrive, then chunks flow through a bounded queue; when the queue is full
/// the loop pauses the transfer (`CURL_WRITEFUNC_PAUSE`) and the reader unpauses it as it drains.
final class CurlResponseSink: Sendable {
    typealias Head = (status: Int, headers: HTTPHeaders, url: String, version: String)

    private struct State {
        var response: CheckedContinuation<HTTPResponse, any Error>?
        var head: CheckedContinuation<HTTPStreamingResponse.Head, any Error>?
        var headDelivered = false
        var chunks = Deque<[UInt8]>()
        var bufferedBytes = 0
        var deliveredBytes = 0
        var paused = false
        var reader: CheckedContinuation<[UInt8]?, any Error>?
        var end: Result<Void, any Error>?
    }

    let isStreaming: Bool
    private let highWater: Int
    private let state = Mutex(State())
    /// Set by the client: asks the loop to resume a paused transfer, or to cancel one nobody reads.
    let control: Mutex<(unpause: @Sendable () -> Void, cancel: @Sendable () -> Void)?> = Mutex(nil)

    init(streaming: Bool, highWater: Int = 1 << 20) {
        isStreaming = streaming
        self.highWater = highWater
    }

    func setBuffered(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        state.withLock { $0.response = continuation }
    }

    func setHead(_ continuation: CheckedContinuation<HTTPStreamingResponse.Head, any Error>) {
        state.withLock { $0.head = continuation }
    }

    var deliveredBytes: Int { state.withLock { $0.deliveredBytes } }

    // MARK: Loop side

    /// Streaming: takes a chunk, or returns `false` to pause the transfer while the reader is behind.
    func offer(_ bytes: UnsafeRawBufferPointer, head: () -> Head) -> Bool {
        let headNow = state.withLock { $0.headDelivered } ? nil : head()
        let (headWaiter, reader, chunk, accepted): (CheckedContinuation<HTTPStreamingResponse.Head, any Error>?, CheckedContinuation<[UInt8]?, any Error>?, [UInt8], Bool) =
            state.withLock { state in
                var headWaiter: CheckedContinuation<HTTPStreamingResponse.Head, any Error>?
                if !state.headDelivered {
                    state.headDelivered = true
                    headWaiter = state.head
                    state.head = nil
                }
                guard state.bufferedBytes < highWater else {
                    state.paused = true
                    return (headWaiter, nil, [], false)
                }
                let chunk = Array(bytes)
                state.deliveredBytes += chunk.count
                if let reader = state.reader {
                    state.reader = nil
                    return (headWaiter, reader, chunk, true)
                }
                state.chunks.append(chunk)
                state.bufferedBytes += chunk.count
                return (headWaiter, nil, [], true)
            }
        if let headWaiter, let headNow {
            headWaiter.resume(returning: HTTPStreamingResponse.Head(status: headNow.status, headers: headNow.headers, url: headNow.url, httpVersion: headNow.version))
        }
        reader?.resume(returning: chunk)
        return accepted
    }

    /// The transfer ended (loop thread, or the client for a transfer that never started).
    func complete(_ result: Result<HTTPResponse, any Error>) {
        let (response, head, reader, endResult): (CheckedContinuation<HTTPResponse, any Error>?, CheckedContinuation<HTTPStreamingResponse.Head, any Error>?, CheckedContinuation<[UInt8]?, any Error>?, Result<Void, any Error>) =
            state.withLock { state in
                let endResult = result.map { _ in () }
                defer {
                    state.response = nil
                    state.head = nil
                }
                guard state.end == nil else { return (nil, nil, nil, endResult) }
                state.end = endResult
                var reader: CheckedContinuation<[UInt8]?, any Error>?
                if state.chunks.isEmpty {
                    reader = state.reader
                    state.reader = nil
                }
                state.headDelivered = true
                return (state.response, state.head, reader, endResult)
            }
        switch result {
        case .success(let full):
            response?.resume(returning: full)
            head?.resume(returning: HTTPStreamingResponse.Head(status: full.status, headers: full.headers, url: full.url, httpVersion: full.httpVersion))
        case .failure(let error):
            response?.resume(throwing: error)
            head?.resume(throwing: error)
        }
        switch endResult {
        case .success: reader?.resume(returning: nil)
        case .failure(let error): reader?.resume(throwing: error)
        }
        // Breaks the reference cycle through the transfer; only streaming transfers set a control.
        if isStreaming { control.withLock { $0 = nil } }
    }

    // MARK: Reader side (streaming)

    func nextChunk() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                enum Now { case chunk([UInt8], unpause: Bool), end(Result<Void, any Error>), wait }
                let now: Now = state.withLock { state in
                    if let chunk = state.chunks.popFirst() {
                        state.bufferedBytes -= chunk.count
                        let unpause = state.paused && state.bufferedBytes <= highWater / 2
                        if unpause { state.paused = false }
                        return .chunk(chunk, unpause: unpause)
                    }
                    if let end = state.end { return .end(end) }
                    if Task.isCancelled { return .end(.failure(CancellationError())) }
                    state.reader = continuation
                    return .wait
                }
                switch now {
                case .chunk(let chunk, let unpause):
                    if unpause { control.withLock { $0 }?.unpause() }
                    continuation.resume(returning: chunk)
                case .end(.success): continuation.resume(returning: nil)
                case .end(.failure(let error)): continuation.resume(throwing: error)
                case .wait: break
                }
            }
        } onCancel: {
            self.abandon()
        }
    }

    /// The reader stopped reading: cancel the transfer and fail a waiting read.
    func abandon() {
        let (reader, ended) = state.withLock { state -> (CheckedContinuation<[UInt8]?, any Error>?, Bool) in
            defer { state.reader = nil }
            return (state.reader, state.end != nil)
        }
        reader?.resume(throwing: CancellationError())
        if !ended { control.withLock { $0 }?.cancel() }
    }
}
