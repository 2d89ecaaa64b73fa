/// Why ``ParsedJSON/init(reading:limits:)`` refused its input: malformed JSON or a bound exceeded.
///
/// A struct with a kind rather than a module's own error type, so that each caller can turn it into its own
/// error model (FeatureGeometry's `GeometryError`, the engine's `FeatureServiceError`, the contract's rejections)
/// without this module knowing any of them.
package struct JSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// Not RFC 8259 JSON: the message names the problem and its byte offset.
        case malformed
        /// Larger or deeper than the caller's ``JSONReadingLimits``.
        case limitExceeded
    }

    package let kind: Kind
    /// What a person can act on, such as `unexpected ',' where a value was expected at byte 7`.
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

/// Bounds on what the JSON reader accepts, so that hostile input costs bounded time, memory and stack.
package struct JSONReadingLimits: Hashable, Sendable {
    /// The largest input in bytes; checked before parsing starts.
    package var maxBytes: Int
    /// The deepest nesting of arrays and objects. The reader recurses once per level, so this bounds stack use;
    /// values above 512 are treated as 512.
    package var maxDepth: Int

    package init(maxBytes: Int = 64 << 20, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = min(maxDepth, 512)
    }

    /// 64 MiB and 64 levels.
    package static let `default` = JSONReadingLimits()
}
