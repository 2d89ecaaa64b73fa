extension QueryJob {
    /// Where a job's features or ids go (the contract's `delivery`, since 1.3).
    ///
    /// A large selection does not fit in Kafka messages: a worker with an object store writes it there and the
    /// outcome's layer carries a ``StoredResultLocation`` instead (the claim check), which
    /// ``FeatureQueryClient/storedFeatures(of:)`` and ``FeatureQueryClient/resolvingStoredLayers(of:maxBytes:)``
    /// read back.
    public enum Delivery: String, Sendable, Hashable, CaseIterable {
        /// Always in the result message, split into parts and cut at the worker's total as before 1.3.
        case inline
        /// Always in the object store, whatever its size; a worker without a store refuses it
        /// (`store_not_configured`).
        case store
        /// In the object store when a layer passes the worker's threshold (1 MiB by default), else inline; inline
        /// on a worker without a store. The default.
        case auto
    }

    /// How a stored selection is laid out (the contract's `format`).
    public enum StoredFormat: String, Sendable, Hashable, CaseIterable {
        /// One GeoJSON FeatureCollection (ids: one JSON array). The default.
        case geojson
        /// Newline-delimited GeoJSON: one Feature (or id) per line, readable a line at a time.
        case ndjson
    }

    /// How a stored selection is compressed (the contract's `compression`); the client decompresses it when it
    /// fetches the object.
    public enum StoredCompression: String, Sendable, Hashable, CaseIterable {
        /// Stored as written. The default.
        case none
        case gzip
        case zstd
    }
}
