/// Which chunks of a selection's origins are finished, in origin order, so that a read bounded by
/// `maxFeatures` stops once the finished prefix holds more than it may return: every record of a later
/// chunk would be cut anyway, since results are cut in origin order.
///
/// A chunk is finished when every step it started (its first request, and the pages, halves and fallbacks
/// its answers queued) has answered.
struct ChunkProgress: Sendable {
    private var pending: [Int]
    private var records: [Int]
    /// The chunks before this index are finished.
    private var prefixEnd = 0
    /// Records the finished prefix holds.
    private(set) var prefixRecords = 0

    /// `chunks` chunks, each starting with `steps` steps queued.
    init(chunks: Int, steps: Int) {
        pending = Array(repeating: steps, count: chunks)
        records = Array(repeating: 0, count: chunks)
    }

    /// A step of `chunk` is queued.
    mutating func started(_ chunk: Int) {
        pending[chunk] += 1
    }

    /// A step of `chunk` answered, adding `added` records.
    mutating func finished(_ chunk: Int, added: Int) {
        pending[chunk] -= 1
        records[chunk] += added
        while prefixEnd < pending.count, pending[prefixEnd] == 0 {
            prefixRecords += records[prefixEnd]
            prefixEnd += 1
        }
    }

    /// Whether the finished prefix holds more than `limit` records (nil: no limit).
    func passes(_ limit: Int?) -> Bool {
        guard let limit else { return false }
        return prefixRecords > limit
    }
}
