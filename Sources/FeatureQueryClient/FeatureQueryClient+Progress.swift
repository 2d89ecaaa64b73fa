import Kafka
import Synchronization

extension FeatureQueryClient {
    /// The progress events of the job with `requestId`, as they arrive: call it before ``submit(_:timeout:)`` (events
    /// that came before are not kept) for a job with ``QueryJob/progress`` set, and iterate it beside the call.
    ///
    /// The stream finishes when the job's call ends (its outcome arrived, it timed out or was cancelled) or the
    /// client stops; stop iterating to drop it earlier. Events are advisory: a fast job may send none. Only the
    /// newest few are buffered for a slow reader.
    public func progress(of requestId: String) -> AsyncStream<QueryProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: QueryProgress.self, bufferingPolicy: .bufferingNewest(8))
        let id = progressListeners.withLock { $0.add(continuation, for: requestId) }
        continuation.onTermination = { [weak self] _ in
            self?.progressListeners.withLock { $0.remove(id, for: requestId) }
        }
        return stream
    }

    /// Hands a progress message to the listeners of its job; skipped unparsed when nobody listens.
    func deliverProgress(_ message: KafkaConsumerMessage) {
        guard !progressListeners.withLock({ $0.isEmpty }), let value = message.value,
            let progress = QueryProgress(message: value)
        else { return }
        for listener in progressListeners.withLock({ $0.listeners(of: progress.requestId) }) { listener.yield(progress) }
    }

    /// Finishes the progress streams of a call that ended.
    func endProgress(of requestId: String) {
        for listener in progressListeners.withLock({ $0.end(requestId) }) { listener.finish() }
    }

    /// Finishes every progress stream: the client stopped.
    func endAllProgress() {
        for listener in progressListeners.withLock({ $0.endAll() }) { listener.finish() }
    }
}
