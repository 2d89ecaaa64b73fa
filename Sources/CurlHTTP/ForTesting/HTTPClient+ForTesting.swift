import Synchronization
extension HTTPClient {
    /// Live libcurl resources: the tests check that handles and transfers return to their baseline.
    package var statistics: HTTPClientStatistics {
        HTTPClientStatistics(
            easyHandles: loop.liveHandles.load(ordering: .relaxed),
            activeTransfers: loop.activeTransfers.load(ordering: .relaxed)
        )
    }

    /// Whether the caller runs on the client's loop thread: a task that prefers ``taskExecutor`` should.
    package var isOnLoopThread: Bool { loop.isLoopThread }
}

/// Counts of live libcurl resources.
package struct HTTPClientStatistics: Sendable, Hashable {
    /// Easy handles alive, in transfers or kept for reuse.
    package var easyHandles: Int
    /// Transfers on the multi handle now.
    package var activeTransfers: Int
}
