import Synchronization

/// Requests and retries of one layer's query, counted across its concurrent pages for the result.
final class RequestCounter: Sendable {
    private let requests = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)

    init() {}

    func countRequest() { requests.add(1, ordering: .relaxed) }
    func countRetry() { retries.add(1, ordering: .relaxed) }

    var requestCount: Int { requests.load(ordering: .relaxed) }
    var retryCount: Int { retries.load(ordering: .relaxed) }
}
