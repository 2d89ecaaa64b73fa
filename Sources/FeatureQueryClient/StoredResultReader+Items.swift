public import Foundation

extension StoredResultReader {
    /// Each feature (one GeoJSON Feature object) or id (one JSON number or string) of the object at `location`, as
    /// the bytes arrive, in the object's order. Errors are ``FeatureQueryError``s.
    ///
    /// Items come out before the whole object has been checked: the sequence ends with an error
    /// (``FeatureQueryError/Code/storedResultChecksumMismatch``, ``FeatureQueryError/Code/storedResultSizeMismatch``, …)
    /// when the object is not what the worker wrote, so treat what was read as provisional until the sequence has
    /// ended without one.
    public func items(of location: StoredResultLocation) -> StoredItems {
        StoredItems(reader: self, location: location)
    }
}

/// The items of a stored object (``StoredResultReader/items(of:)``): each one feature's or id's JSON.
/// Reading is pulled by the consumer: a slow consumer holds the fetching back, nothing piles up.
public struct StoredItems: AsyncSequence, Sendable {
    public typealias Element = Data

    let reader: StoredResultReader
    let location: StoredResultLocation?
    /// The error a sequence for a layer without a location ends with at once.
    var failure: FeatureQueryError?

    init(reader: StoredResultReader, location: StoredResultLocation?, failure: FeatureQueryError? = nil) {
        self.reader = reader
        self.location = location
        self.failure = failure
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(reading: StoredItemReading(reader: reader, location: location, failure: failure))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let reading: StoredItemReading

        /// `@concurrent`: each chunk is fetched, decompressed and hashed off the caller's actor.
        @concurrent public mutating func next() async throws -> Data? {
            try await reading.next()
        }
    }
}

/// The state of one pass over a stored object's items: its ranges, its pipeline, the items of the last range not
/// handed out yet. A class, since the pipeline is noncopyable and an iterator must be copyable.
final class StoredItemReading {
    private let reader: StoredResultReader
    private let location: StoredResultLocation?
    private var failure: FeatureQueryError?
    private var fetcher: StoredRangeFetcher?
    private var pipeline: StoredObjectPipeline?
    private var pending: [Data] = []
    private var index = 0
    private var ended = false

    init(reader: StoredResultReader, location: StoredResultLocation?, failure: FeatureQueryError?) {
        self.reader = reader
        self.location = location
        self.failure = failure
    }

    func next() async throws(FeatureQueryError) -> Data? {
        while true {
            if index < pending.count {
                defer { index += 1 }
                return pending[index]
            }
            if ended { return nil }
            do throws(FeatureQueryError) {
                try await fill()
            } catch {
                ended = true
                pending = []
                pipeline = nil
                throw error
            }
        }
    }

    /// Reads the next range into ``pending``, or ends the object (every check made).
    private func fill() async throws(FeatureQueryError) {
        pending.removeAll(keepingCapacity: true)
        index = 0
        if let failure { throw failure }
        guard let location else { throw FeatureQueryError(.notStored, "the layer has no stored result") }
        if fetcher == nil {
            fetcher = try reader.fetcher(location)
            pipeline = try StoredObjectPipeline(location)
        }
        guard var current = fetcher else { return }
        let chunk = try await current.next()
        fetcher = current
        if let chunk {
            guard var running = pipeline.take() else { return }
            // A failure ends the reading (``next()`` drops the pipeline), so only success puts it back.
            pending = try running.consume(chunk[...])
            pipeline = .some(running)
        } else {
            ended = true
            guard let running = pipeline.take() else { return }
            pending = try running.finish()
        }
    }
}
