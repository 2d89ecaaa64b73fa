import BenchmarkSupport
import SampleFeatureServer

/// Follows an in-process sample server's request log: which query requests arrived since last asked, and
/// when the server saw given requests aborted (``RecordedRequest/abortedAt``, stamped by the server when
/// the client's closed connection cancelled the handler).
///
/// Polls every `interval`; the figures don't depend on it, since the server stamps the times itself.
struct ServerWatch {
    let server: SampleFeatureServer
    let interval: Duration
    /// The highest request sequence number already handed out.
    private(set) var lastSequence: Int

    init(_ server: SampleFeatureServer, interval: Duration = .milliseconds(1)) {
        self.server = server
        self.interval = interval
        lastSequence = server.statistics.recentRequests.last?.sequence ?? 0
    }

    /// Waits for the next `count` query requests to arrive and returns their sequence numbers.
    mutating func nextQueries(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [Int] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let fresh = server.statistics.recentRequests.filter { $0.sequence > lastSequence && $0.isQuery }
            if fresh.count >= count {
                let taken = fresh.prefix(count).map(\.sequence)
                lastSequence = taken.last ?? lastSequence
                return taken
            }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("the server saw \(fresh.count) of \(count) expected query requests in \(timeout)")
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Waits until every request in `sequences` was aborted and returns when the server saw each abort.
    func aborts(_ sequences: [Int], timeout: Duration = .seconds(30)) async throws -> [ContinuousClock.Instant] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let records = server.statistics.recentRequests.filter { sequences.contains($0.sequence) }
            let instants = records.compactMap(\.abortedAt)
            if instants.count == sequences.count { return instants }
            guard records.count == sequences.count else {
                throw BenchmarkError("requests \(sequences) left the server's request log before they were aborted")
            }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("the server saw \(instants.count) of \(sequences.count) requests aborted in \(timeout)")
            }
            try await Task.sleep(for: interval)
        }
    }
}
