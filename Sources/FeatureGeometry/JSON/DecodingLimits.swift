/// Bounds on what a decoder accepts, so that hostile or broken input costs bounded time, memory and stack.
///
/// Exceeding one is a ``GeometryError/Code/limitExceeded`` error, raised before the work is done: the byte
/// count is checked before parsing, the depth before descending, the position count as positions are read.
package struct DecodingLimits: Hashable, Sendable {
    /// The largest input, in bytes, that will be parsed. Default 64 MiB: a detailed national boundary is a few
    /// tens of MiB of Esri JSON.
    package var maxBytes: Int
    /// The deepest nesting of arrays and objects. Default 64; a MultiPolygon inside a FeatureCollection needs 8.
    /// Parsing recurses once per level, so this also bounds stack use; values above 512 are treated as 512.
    package var maxDepth: Int
    /// The most vertices one geometry may have. Default 5 000 000 (80 MB of coordinates).
    package var maxPositions: Int

    /// Limits with the defaults described on each property; lower them for untrusted input from a message.
    package init(maxBytes: Int = 64 << 20, maxDepth: Int = 64, maxPositions: Int = 5_000_000) {
        self.maxBytes = maxBytes
        self.maxDepth = min(maxDepth, 512)
        self.maxPositions = maxPositions
    }

    /// The defaults described on each property.
    package static let `default` = DecodingLimits()
}
