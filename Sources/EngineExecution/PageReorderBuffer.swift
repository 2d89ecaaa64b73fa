/// Puts pages that complete out of order back in page order: an ordered layer streamed to the store must be
/// written in its order, while its pages are fetched in parallel.
///
/// The page loop asks ``count`` before scheduling more pages and schedules none while it exceeds the page
/// concurrency, so the buffer holds at most a few pages: a stalled early page stops the loop, not memory.
package struct PageReorderBuffer<Page> {
    private var waiting: [Int: Page] = [:]
    /// The index of the page written next.
    package private(set) var nextIndex: Int

    package init(first: Int = 0) { nextIndex = first }

    /// Pages held, waiting for an earlier one.
    package var count: Int { waiting.count }

    /// Takes page `index` and returns the pages now ready, in order (none while an earlier page is missing).
    package mutating func put(_ page: Page, at index: Int) -> [Page] {
        waiting[index] = page
        var ready: [Page] = []
        while let next = waiting.removeValue(forKey: nextIndex) {
            ready.append(next)
            nextIndex += 1
        }
        return ready
    }
}

extension PageReorderBuffer: Sendable where Page: Sendable {}
