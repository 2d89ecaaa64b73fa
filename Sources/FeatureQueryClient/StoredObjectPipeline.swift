import Foundation

/// A stored object's whole reading without I/O: its bytes checked and decoded (``StoredObjectDecoder``), then cut
/// into items (``StoredItemSplitter``), and the number of items checked against the location's count.
///
/// Items come out before the object's checksum is known (that is what keeps memory flat); a caller that must not
/// act on unverified items holds them until ``finish()`` returns.
struct StoredObjectPipeline: ~Copyable {
    private var decoder: StoredObjectDecoder
    private var splitter: StoredItemSplitter
    private var decoded: [UInt8] = []

    init(_ location: StoredResultLocation) throws(FeatureQueryError) {
        guard let format = location.format else {
            throw FeatureQueryError(
                .storedResultMalformed, "the stored result \(location.url) has content type '\(location.contentType)', which this client cannot read")
        }
        decoder = try StoredObjectDecoder(location)
        splitter = StoredItemSplitter(format == .ndjson ? .lines : .document)
    }

    /// Takes the next stored bytes; returns the items they complete (each one feature's or id's JSON).
    mutating func consume(_ chunk: ArraySlice<UInt8>) throws(FeatureQueryError) -> [Data] {
        decoded.removeAll(keepingCapacity: true)
        try decoder.consume(chunk, into: &decoded)
        guard decoder.deferredFailure == nil else { return [] }
        var items: [Data] = []
        do {
            try splitter.consume(decoded) { items.append(Data($0)) }
        } catch {
            decoder.deferFailure(malformed(error.message))
            return []
        }
        return items
    }

    /// Ends the object: every check (size, SHA-256, compressed stream, JSON framing, count); the last items.
    consuming func finish() throws(FeatureQueryError) -> [Data] {
        var items: [Data] = []
        if decoder.deferredFailure == nil {
            do {
                try splitter.finish { items.append(Data($0)) }
            } catch {
                decoder.deferFailure(malformed(error.message))
            }
        }
        let location = decoder.location
        let count = splitter.count
        try decoder.finish()
        guard count == location.count else {
            throw FeatureQueryError(
                .storedResultMalformed,
                "the stored result \(location.url) holds \(count) \(location.holdsIds ? "ids" : "features"), its location says \(location.count)")
        }
        return items
    }

    private func malformed(_ what: String) -> FeatureQueryError {
        FeatureQueryError(.storedResultMalformed, "the stored result \(decoder.location.url) \(what)")
    }
}
