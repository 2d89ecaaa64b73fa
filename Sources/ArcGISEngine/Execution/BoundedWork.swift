/// Runs work items in a task group, at most `limit` at once, where finishing one item may queue more (a
/// short page queues the rest of its range).
///
/// `next` and `completed` run on the calling task only, so they may share plain local state (a planner);
/// `execute` runs in child tasks. The first error cancels the items still running and is rethrown, so
/// cancelling a query stops all of its pages at once.
///
/// `completed` may suspend (a page appended to the result store waits while the store is behind): meanwhile
/// no further item is started, so at most `limit` items' outputs wait in memory. That is the back-pressure
/// that bounds a streamed layer.
enum BoundedWork {
    static func run<Work: Sendable, Output: Sendable>(
        limit: Int,
        next: () -> Work?,
        execute: @escaping @Sendable (Work) async throws -> Output,
        completed: (Work, Output) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Work, Output).self) { group in
            var running = 0
            while running < limit, let work = next() {
                group.addTask { (work, try await execute(work)) }
                running += 1
            }
            while let (work, output) = try await group.next() {
                running -= 1
                try await completed(work, output)
                while running < limit, let work = next() {
                    group.addTask { (work, try await execute(work)) }
                    running += 1
                }
            }
        }
    }
}
