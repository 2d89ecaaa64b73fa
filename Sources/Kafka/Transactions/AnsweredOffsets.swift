/// The offsets past a partition's committed offset whose answers are committed too, written into the commit's
/// metadata so that the partition's next owner does not answer them again.
///
/// Why: requests of one partition finish in any order, and an offset is committed only up to the first request
/// not yet answered. With exactly-once outcomes, the answers past that gap are committed in the same
/// transactions; a worker that dies before the gap closes left them answered beyond the committed offset, and
/// the next owner, reading from that offset, answered them a second time (19 of 200 in a kill with 100
/// requests in flight). Kafka's offset commit carries a metadata string per partition, committed atomically
/// with the offset and the transaction's outcomes; the answered offsets written there are exactly the answers
/// committed past the offset, whatever dies when.
///
/// The text is `answered:1:` and ranges of offsets relative to the committed offset, in base 36, each `a` or
/// `a-b`, separated by commas: offsets 14, 15, 16 and 19 above a committed 13 are `answered:1:1-3,6`. A
/// metadata string of any other shape names no answered offset. Kafka brokers keep at most
/// `offset.metadata.max.bytes` (4,096 by default) of it: ranges past ``maximumLength`` are left out, and the
/// answers they stand for would be repeated by a next owner.
package enum AnsweredOffsets {
    static let prefix = "answered:1:"
    /// The longest metadata written, under a broker's default 4,096 bytes.
    package static let maximumLength = 4_000

    /// The metadata for a commit of `offset` (the next offset to read) that also covers the answers of
    /// `answered` (offsets below `offset` are ignored); and how many offsets did not fit.
    package static func metadata(committing offset: Int64, answered: some Sequence<Int64>) -> (text: String, leftOut: Int) {
        let sorted = answered.filter { $0 >= offset }.sorted()
        guard !sorted.isEmpty else { return ("", 0) }
        var text = prefix
        var index = 0
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count, sorted[end + 1] <= sorted[end] + 1 { end += 1 }
            let first = String(sorted[index] - offset, radix: 36)
            let range = sorted[end] == sorted[index] ? first : first + "-" + String(sorted[end] - offset, radix: 36)
            let separator = text.count == prefix.count ? "" : ","
            guard text.utf8.count + separator.utf8.count + range.utf8.count <= maximumLength else {
                return (text.count == prefix.count ? "" : text, sorted.count - index)
            }
            text += separator + range
            index = end + 1
        }
        return (text, 0)
    }

    /// The answered offsets a commit of `offset` with `metadata` names; none for metadata of another shape
    /// (another client's, or none).
    package static func offsets(in metadata: String, committed offset: Int64) -> Set<Int64> {
        guard offset >= 0, metadata.hasPrefix(prefix) else { return [] }
        var offsets: Set<Int64> = []
        for range in metadata.dropFirst(prefix.count).split(separator: ",") {
            let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 1 || bounds.count == 2, let low = Int64(bounds[0], radix: 36),
                let high = bounds.count == 2 ? Int64(bounds[1], radix: 36) : low, low >= 0, high >= low,
                high - low < 1_000_000, offsets.count + Int(high - low) < 1_000_000, high <= Int64.max - offset
            else { return [] }
            for relative in low...high { offsets.insert(offset + relative) }
        }
        return offsets
    }
}
