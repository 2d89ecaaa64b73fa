/// The command line's spellings of ``LayerQueryOptions``: `--query-option [LAYER_PATH=]FLAG=true|false` and
/// `--query-quirk [LAYER_PATH=]QUIRK`, parsed here so that the executable and tests share one reading.
extension SampleServerConfiguration {
    /// Applies command-line `--query-option` and `--query-quirk` specs: the server-wide ones first, then the
    /// per-layer ones, so a layer's own settings add to the server-wide ones whatever the order given.
    package mutating func applyQuerySpecs(options: [String], quirks: [String]) throws(QueryOptionError) {
        for perLayer in [false, true] {
            for spec in options where Self.namesLayer(spec) == perLayer { try applyQueryOption(spec) }
            for spec in quirks where Self.namesLayer(spec) == perLayer { try applyQueryQuirk(spec) }
        }
    }

    private static func namesLayer(_ spec: String) -> Bool {
        spec.split(separator: "=", maxSplits: 1).first?.contains("/") == true
    }

    /// Applies `supportsDistinct=false` to every layer, or `USA/MapServer/3=supportsStatistics=false` to one.
    /// A layer's own options start from the server-wide ones as they are at that point, so give server-wide
    /// settings first.
    package mutating func applyQueryOption(_ spec: String) throws(QueryOptionError) {
        let (layer, rest) = try Self.split(spec)
        let parts = rest.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Bool(parts[1].lowercased()) else {
            throw QueryOptionError(message: "expected [LAYER_PATH=]FLAG=true|false, found '\(spec)'")
        }
        try update(layer) { (options) throws(QueryOptionError) in
            guard options.set(parts[0], value) else {
                throw QueryOptionError(message: "unknown flag '\(parts[0])'; known: \(LayerQueryOptions.flagNames.joined(separator: ", "))")
            }
        }
    }

    /// Applies `statistics-fail` to every layer, or `USA/MapServer/3=shuffled-pages` to one.
    package mutating func applyQueryQuirk(_ spec: String) throws(QueryOptionError) {
        let (layer, name) = try Self.split(spec)
        guard let quirk = QueryQuirk(rawValue: name.lowercased()) else {
            throw QueryOptionError(
                message: "unknown quirk '\(name)'; known: \(QueryQuirk.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try update(layer) { (options) throws(QueryOptionError) in options.quirks.insert(quirk) }
    }

    private mutating func update(
        _ layer: SampleLayer?, _ change: (inout LayerQueryOptions) throws(QueryOptionError) -> Void
    ) throws(QueryOptionError) {
        if let layer {
            var options = queryOptions(layer)
            try change(&options)
            layerQueryOptions[layer] = options
        } else {
            try change(&queryOptions)
        }
    }

    /// A leading `LAYER_PATH=` (a path with `/`), and the rest.
    private static func split(_ spec: String) throws(QueryOptionError) -> (SampleLayer?, String) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].contains("/") else { return (nil, spec) }
        guard let layer = SampleLayer(rawValue: parts[0]) else {
            throw QueryOptionError(message: "unknown layer path '\(parts[0])', e.g. LA_County_Parcels/FeatureServer/1")
        }
        return (layer, parts[1])
    }
}

/// A `--query-option` or `--query-quirk` the server cannot read.
package struct QueryOptionError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
