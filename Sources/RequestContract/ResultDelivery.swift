/// How a request wants its features or ids delivered (contract 1.3): in the result message as always, or in the
/// operator's object store with the result carrying the location (issue 31's claim check), and in what form.
///
/// Advisory in the same way as `progress`: it never changes what is selected, only where it goes. Part of the
/// sharing fingerprint (a request stored and one inline must not share a run's outcome).
package struct ResultDelivery: Sendable, Hashable {
    /// `delivery`: where the selection goes.
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        /// In the result message, split into parts and cut at the worker's total as before 1.3.
        case inline
        /// In the object store, whatever its size; refused `store_not_configured` by a worker without a store.
        case store
        /// In the object store when a layer's selection passes the worker's threshold (1 MiB by default), else
        /// inline; inline on a worker without a store.
        case auto
    }

    /// `format`: how the stored object is laid out.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        /// One GeoJSON FeatureCollection (ids: one JSON array).
        case geojson
        /// Newline-delimited GeoJSON: one Feature (or id) per line, readable a line at a time.
        case ndjson
    }

    /// `compression`: applied to the stored bytes as they are written (`Content-Encoding`).
    package enum Compression: String, Sendable, Hashable, CaseIterable {
        case none
        case gzip
        case zstd
    }

    package var mode: Mode
    package var format: Format
    package var compression: Compression

    package init(mode: Mode = .auto, format: Format = .geojson, compression: Compression = .none) {
        self.mode = mode
        self.format = format
        self.compression = compression
    }

    /// What a message without the 1.3 fields asks: stored above the threshold when a store is configured.
    package static let `default` = ResultDelivery()

    /// Reads `delivery`, `format` and `compression` from a request's top level.
    static func read(_ reader: RequestFieldReader) throws(ContractError) -> ResultDelivery {
        let mode = try reader.oneOf("delivery", Mode.allCases.map(\.rawValue)).flatMap(Mode.init(rawValue:)) ?? .auto
        let format = try reader.oneOf("format", Format.allCases.map(\.rawValue)).flatMap(Format.init(rawValue:)) ?? .geojson
        let compression =
            try reader.oneOf("compression", Compression.allCases.map(\.rawValue)).flatMap(Compression.init(rawValue:)) ?? .none
        if mode == .inline, reader.has("format") || reader.has("compression") {
            throw ContractError.at(
                "delivery", .invalidValue,
                "format and compression apply to a stored result; with \"delivery\": \"inline\" leave them out")
        }
        return ResultDelivery(mode: mode, format: format, compression: compression)
    }
}
