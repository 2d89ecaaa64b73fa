import Synchronization

extension SampleDataset {
    private static let cache = Mutex<[SharedKey: SampleDataset]>([:])

    private struct SharedKey: Hashable {
        var parcelCount: Int
        var seed: UInt64
    }

    /// One dataset per parcel count and seed for the whole process. Generation is the slow part of starting a
    /// server, and test suites start many servers over the same data.
    package static func shared(parcelCount: Int, seed: UInt64) throws -> SampleDataset {
        try cache.withLock { cache in
            let key = SharedKey(parcelCount: parcelCount, seed: seed)
            if let dataset = cache[key] { return dataset }
            let dataset = try SampleDataset(parcelCount: parcelCount, seed: seed)
            cache[key] = dataset
            return dataset
        }
    }
}
