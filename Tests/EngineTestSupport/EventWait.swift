package import Testing

/// Waits for something the engine does (a page appended, an append held), polling every 5 ms: the test goes on
/// the moment it happens. The bound only decides when a test that will never see it fails: generous, because
/// a whole test process of suites in parallel on two cores can hold a test's task for many seconds.
package enum EventWait {
    package static func until(
        _ what: Comment, bound: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + bound
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(what) did not happen within \(bound)", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
