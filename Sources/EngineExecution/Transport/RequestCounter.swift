import Synchronization

/// Requests and retries of one layer's query, counted across its concurrent pages for the result.
package final class RequestCounter: Sendable {
    private let requests = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)

    package init() {}

    package func countRequest() { requests.add(1, ordering: .relaxed) }
    package func countRetry() { retries.add(1, ordering: .relaxed) }

    package var requestCount: Int { requests.load(ordering: .relaxed) }
    package var retryCount: Int { retries.load(ordering: .relaxed) }
}
