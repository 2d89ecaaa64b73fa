/// One page of features already written as GeoJSON `Feature` objects, back to back in one buffer: what the
/// engine keeps when the caller wants GeoJSON, so that pages are converted as they arrive (in parallel) and
/// a result holds compact bytes instead of a tree per feature.
struct GeoJSONPage: Sendable {
    struct Entry: Sendable, Hashable {
        var objectId: Int64
        /// The feature's bytes within ``GeoJSONPage/bytes``.
        var start: Int
        var end: Int
    }

    /// `{"type":"Feature",...}` objects, one after another, without separators.
    var bytes: [UInt8]
    /// One entry per feature, in the order the service sent them.
    var entries: [Entry]
    var exceededTransferLimit: Bool
    var objectIdFieldName: String?

    init(bytes: [UInt8], entries: [Entry], exceededTransferLimit: Bool, objectIdFieldName: String?) {
        self.bytes = bytes
        self.entries = entries
        self.exceededTransferLimit = exceededTransferLimit
        self.objectIdFieldName = objectIdFieldName
    }
}
