import Synchronization

/// Ended spans waiting for export, bounded, and the one waiter (the exporter's loop) to wake.
///
/// Why a lock and not an `AsyncStream` per span: a stream's `yield` resumes its reader's task for every
/// element, a wake of a pool thread per span; here a span's end is an append under a lock, and the exporter is
/// woken only when a batch is full (or by its schedule). Spans beyond ``capacity`` are dropped and counted, as
/// OpenTelemetry's batch span processor drops when its queue is full, so a collector that is down or slow never
/// grows the worker's memory.
final class SpanQueue: Sendable {
    let capacity: Int
    let batchSize: Int
    private let state: Mutex<State>

    private struct State {
        var spans: [FinishedSpan] = []
        var waiter: CheckedContinuation<Bool, Never>?
        /// A wake that came while nobody waited: the next wait returns at once.
        var woken = false
        var dropped = 0
        var accepted = 0
    }

    init(capacity: Int, batchSize: Int) {
        self.capacity = max(1, capacity)
        self.batchSize = max(1, min(batchSize, capacity))
        var initial = State()
        initial.spans.reserveCapacity(self.batchSize)
        self.state = Mutex(initial)
    }

    /// Adds an ended span; the exporter is woken when this one fills a batch.
    func append(_ span: FinishedSpan) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard state.spans.count < capacity else {
                state.dropped += 1
                return nil
            }
            state.spans.append(span)
            state.accepted += 1
            guard state.spans.count == batchSize, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: false)
    }

    /// Wakes the exporter now to send everything queued (its schedule, a flush, shutdown).
    func wake() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.woken = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Returns when a batch is full (false), or on ``wake()`` or cancellation (true: send everything queued).
    func waitForWake() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.woken || Task.isCancelled {
                        state.woken = false
                        return true
                    }
                    if state.spans.count >= batchSize { return false }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            wake()
        }
    }

    /// Up to `limit` spans, oldest first, taken out of the queue; with `whole`, none unless `limit` are queued.
    func take(upTo limit: Int, whole: Bool = false) -> [FinishedSpan] {
        state.withLock { state in
            guard !state.spans.isEmpty, !whole || state.spans.count >= limit else { return [] }
            let count = min(limit, state.spans.count)
            if count == state.spans.count {
                var taken: [FinishedSpan] = []
                taken.reserveCapacity(batchSize)
                swap(&taken, &state.spans)
                return taken
            }
            let taken = Array(state.spans.prefix(count))
            state.spans.removeFirst(count)
            return taken
        }
    }

    /// Spans queued so far, and spans dropped because the queue was full.
    var counts: (accepted: Int, dropped: Int) {
        state.withLock { ($0.accepted, $0.dropped) }
    }
}
