import Synchronization

/// The server's counters and its bounded log of recent requests, under one lock.
final class StatisticsRecorder: Sendable {
    private struct State {
        var statistics = SampleServerStatistics()
        /// A ring buffer of recent requests; `next` is where the next one goes.
        var recent: [RecordedRequest] = []
        var next = 0
        var answeredSpans = AnsweredServiceSpans()
    }

    private let state = Mutex(State())
    private let limit: Int

    init(recentRequestLimit: Int) {
        limit = max(0, recentRequestLimit)
    }

    /// A service request (not a token endpoint's) began to be handled: its event number for ``ended(began:answered:)``.
    func began() -> Int {
        state.withLock { state in
            state.statistics.serviceRequestsInProgress += 1
            state.statistics.maxServiceRequestsInProgress = max(
                state.statistics.maxServiceRequestsInProgress, state.statistics.serviceRequestsInProgress)
            return state.answeredSpans.began()
        }
    }

    /// A service request ended: answered (its handler returned, an error response included), or abandoned by its
    /// client (the handler's task cancelled).
    func ended(began: Int, answered: Bool) {
        state.withLock { state in
            state.statistics.serviceRequestsInProgress -= 1
            state.answeredSpans.ended(began: began, answered: answered)
        }
    }

    /// The most answered service requests that were in progress at once (``AnsweredServiceSpans``).
    var mostAnsweredServiceRequestsAtOnce: Int { state.withLock { $0.answeredSpans }.mostAtOnce }

    /// Counts a request, logs it (numbered) and returns its sequence number.
    func received(_ request: RecordedRequest) -> Int {
        state.withLock { state in
            state.statistics.requests += 1
            let sequence = state.statistics.requests
            guard limit > 0 else { return sequence }
            var record = request
            record.sequence = sequence
            if state.recent.count < limit {
                state.recent.append(record)
            } else {
                state.recent[state.next] = record
            }
            state.next = (state.next + 1) % limit
            return sequence
        }
    }

    func injected(_ kinds: [FaultKind], sequence: Int) {
        guard !kinds.isEmpty else { return }
        state.withLock { state in
            for kind in kinds { state.statistics.faultsInjected[kind, default: 0] += 1 }
            if let position = state.recent.lastIndex(where: { $0.sequence == sequence }) {
                state.recent[position].faults = kinds
            }
        }
    }

    func query(_ layer: SampleLayer) { state.withLock { $0.statistics.queries[layer, default: 0] += 1 } }

    func ogcItems(_ collection: String) { state.withLock { $0.statistics.ogcItemRequests[collection, default: 0] += 1 } }

    func metadata() { state.withLock { $0.statistics.metadataRequests += 1 } }

    func error() { state.withLock { $0.statistics.errorResponses += 1 } }

    /// Counts an aborted request and stamps its log entry (if still in the log) with the time.
    func aborted(sequence: Int) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.statistics.aborted += 1
            if let position = state.recent.lastIndex(where: { $0.sequence == sequence }) {
                state.recent[position].abortedAt = now
            }
        }
    }

    func reset() {
        state.withLock { state in
            var spans = state.answeredSpans
            spans.forgetSpans()
            state = State()
            state.answeredSpans = spans
        }
    }

    var snapshot: SampleServerStatistics {
        state.withLock { state in
            var statistics = state.statistics
            if state.recent.count < limit || limit == 0 {
                statistics.recentRequests = state.recent
            } else {
                statistics.recentRequests = Array(state.recent[state.next...] + state.recent[..<state.next])
            }
            return statistics
        }
    }
}
