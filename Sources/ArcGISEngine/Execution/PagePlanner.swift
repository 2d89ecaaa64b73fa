/// Which offset ranges of a paginated layer to fetch, and what to fetch next as pages come back.
///
/// Pages are planned from the count so they can be fetched in parallel. Services then deviate in three
/// ways, each handled here: a page shorter than asked while `exceededTransferLimit` is set (the service
/// trimmed it: the rest of the range is fetched again), an empty page with the flag set (retried once, then
/// given up on: the completeness repair fetches its rows by id), and a last page with the flag set (rows were added since the count:
/// paging goes on). A value type without I/O, tested on its own.
struct PagePlanner {
    struct Range: Hashable, Sendable {
        var offset: Int
        var count: Int
        var end: Int { offset + count }
    }

    let pageSize: Int
    /// The most rows wanted (the count, or the caller's `maxFeatures` when smaller).
    let wanted: Int
    /// Whether rows past `wanted` are wanted if the service has them (false when cut by `maxFeatures`).
    let extendPastWanted: Bool
    private var plannedEnd: Int
    private var queue: [Range] = []
    private var emptyRetried: Set<Int> = []
    /// The most ranges past the count to follow before stopping (a service that sets the flag forever).
    private var extensionsLeft: Int

    init(wanted: Int, pageSize: Int, extendPastWanted: Bool, maxExtensions: Int = 10_000) {
        self.pageSize = max(1, pageSize)
        self.wanted = max(0, wanted)
        self.extendPastWanted = extendPastWanted
        self.extensionsLeft = maxExtensions
        var offset = 0
        while offset < self.wanted {
            queue.append(Range(offset: offset, count: min(self.pageSize, self.wanted - offset)))
            offset += self.pageSize
        }
        plannedEnd = self.wanted
        queue.reverse()  // popLast hands out the lowest offset first
    }

    /// The next range to fetch, if any is waiting.
    mutating func next() -> Range? { queue.popLast() }

    /// Records a page: `received` rows came back for `range`, with the service's `exceededTransferLimit`.
    mutating func record(_ range: Range, received: Int, exceededTransferLimit: Bool) {
        if received < range.count {
            guard exceededTransferLimit else { return }  // the data ends inside this range
            let rest = Range(offset: range.offset + received, count: range.count - received)
            // A second empty page for the range: given up on (the completeness repair fetches its rows by id).
            if received == 0, !emptyRetried.insert(range.offset).inserted { return }
            queue.append(rest)
            return
        }
        if exceededTransferLimit, extendPastWanted, range.end >= plannedEnd, extensionsLeft > 0 {
            extensionsLeft -= 1
            queue.insert(Range(offset: plannedEnd, count: pageSize), at: 0)
            plannedEnd += pageSize
        }
    }
}
