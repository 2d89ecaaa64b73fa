import FeatureService

/// The state of one related read (``LayerQueryRunner/runRelated(_:)``): the steps still to ask, the records
/// held, the counts the service gave. Its methods run on the reading task only (``BoundedWork``'s `next` and
/// `completed`), so it is a plain value.
struct RelatedRead: Sendable {
    private(set) var progress: ChunkProgress
    private(set) var collector: RelatedRecordCollector
    /// Whether some origin's records were read from the related table by key (the worker joined them).
    private(set) var usedTableQuery = false
    /// The steps to ask, the next one last: steps an answer queues are asked before later chunks, so chunks
    /// finish in order.
    private var stack: [RelatedStep] = []
    /// Whether the service pages related records (`supportsQueryRelatedPagination`).
    private let paginates: Bool
    /// How many related ids one records request of the fallback asks for.
    private let recordsChunk: Int
    /// Each origin's related record count, as the service counted it; nil where it does not count.
    private var expected: [Int64: Int]?

    /// A read of `origins` (ascending) in chunks of `chunkSize`. Where the service counts (`counts`), each
    /// chunk is counted first and its record requests are planned from the counts: origins without records
    /// are not asked, the others are grouped so that no answer passes the transfer limit, and an origin
    /// that passes it alone is paged or read by key at once. Elsewhere each chunk is asked whole and a cut
    /// answer continued (``record(_:_:)``).
    init(origins: [Int64], chunkSize: Int, paginates: Bool, counts: Bool, target: RelatedTarget) {
        collector = RelatedRecordCollector(orderBy: target.orderBy)
        self.paginates = paginates
        recordsChunk = max(1, target.table.maxRecordCount)
        expected = counts ? [:] : nil
        let size = max(1, chunkSize)
        let starts = Array(stride(from: 0, to: origins.count, by: size))
        progress = ChunkProgress(chunks: starts.count, steps: 1)
        for (chunk, start) in starts.enumerated().reversed() {
            let ids = Array(origins[start..<min(start + size, origins.count)])
            stack.append(counts ? .counts(chunk: chunk, origins: ids) : .group(chunk: chunk, origins: ids, offset: 0))
        }
    }

    /// The next step to ask; nil when none is queued (steps in flight may queue more).
    mutating func next() -> RelatedStep? { stack.popLast() }

    /// Takes `answer` to `step` in: holds its records, queues what it leaves to read (the next page, two
    /// halves, the fallback by key). The answer's records are reserved with `reserve` (their bytes) before
    /// they are held: when it refuses, nothing of the answer is held and false is returned.
    mutating func record(_ step: RelatedStep, _ answer: RelatedAnswer, reserve: (Int) -> Bool = { _ in true }) -> Bool {
        let before = collector.count
        var groups: [(objectId: Int64, records: [HeldRelatedRecord])] = []
        switch (step, answer) {
        case (.group(_, let origins, _), .group(let page)):
            let asked = Set(origins)
            groups = page.groups.filter { asked.contains($0.objectId) }
        case (.records, .records(let page)):
            groups = page.groups
        default:
            break
        }
        guard reserve(groups.reduce(0) { $0 + RelatedRecordCollector.bytes(of: $1.records) }) else { return false }
        for group in groups { collector.add(group.records, origin: group.objectId) }
        switch (step, answer) {
        case (.group(let chunk, let origins, let offset), .group(let page)) where page.exceededTransferLimit:
            continueCut(chunk: chunk, origins: origins, offset: offset, page: page, added: collector.count - before)
        case (.counts(let chunk, let origins), .counts(let counts)):
            for (origin, count) in counts { expected?[origin, default: 0] += count }
            plan(chunk: chunk, origins: origins, counts: counts)
        case (.keyIds(let chunk, let origin), .keyIds(let ids)):
            for start in stride(from: 0, to: ids.count, by: recordsChunk).reversed() {
                push(.records(chunk: chunk, origin: origin, ids: Array(ids[start..<min(start + recordsChunk, ids.count)])))
            }
        default:
            break
        }
        progress.finished(step.chunk, added: collector.count - before)
        return true
    }

    /// Queues what an answer cut at the transfer limit left: the next page where the service pages (and the
    /// page brought something new: a service that ignores `resultOffset` repeats its first page), else the
    /// chunk's halves, else, for one origin, its records by key.
    private mutating func continueCut(chunk: Int, origins: [Int64], offset: Int, page: EncodedRelatedPage, added: Int) {
        if paginates, page.rowCount > 0, added > 0 {
            push(.group(chunk: chunk, origins: origins, offset: offset + page.rowCount))
        } else if origins.count > 1 {
            let middle = origins.count / 2
            push(.group(chunk: chunk, origins: Array(origins[middle...]), offset: 0))
            push(.group(chunk: chunk, origins: Array(origins[..<middle]), offset: 0))
        } else if let only = origins.first {
            usedTableQuery = true
            push(.keyIds(chunk: chunk, origin: only))
        }
    }

    /// Queues a counted chunk's record requests: consecutive origins with records, as many per request as
    /// the transfer limit holds; an origin above the limit on its own request where the service pages, else
    /// read by key.
    private mutating func plan(chunk: Int, origins: [Int64], counts: [Int64: Int]) {
        var planned: [RelatedStep] = []
        var current: [Int64] = []
        var held = 0
        func flush() {
            if !current.isEmpty { planned.append(.group(chunk: chunk, origins: current, offset: 0)) }
            current = []
            held = 0
        }
        for origin in origins {
            let count = counts[origin] ?? 0
            guard count > 0 else { continue }
            if count > recordsChunk, !paginates {
                usedTableQuery = true
                planned.append(.keyIds(chunk: chunk, origin: origin))
                continue
            }
            if held + count > recordsChunk { flush() }
            current.append(origin)
            held += count
        }
        flush()
        for step in planned.reversed() { push(step) }
    }

    private mutating func push(_ step: RelatedStep) {
        progress.started(step.chunk)
        stack.append(step)
    }

    /// The records the service counted over all origins; nil where it does not count.
    var expectedTotal: Int? { expected.map { $0.values.reduce(0, +) } }

    /// How many origins hold a different number of records than the service counted; nil when all agree or
    /// the service does not count.
    func countMismatch() -> Int? {
        guard let expected else { return nil }
        var origins = Set(expected.keys)
        origins.formUnion(collector.origins)
        let differing = origins.filter { (expected[$0] ?? 0) != collector.count(of: $0) }.count
        return differing == 0 ? nil : differing
    }
}
