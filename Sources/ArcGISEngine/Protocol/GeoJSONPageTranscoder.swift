import FeatureGeometry
import FeatureQuerySupport
import FeatureService

extension ArcGISResponse {
    /// A `query` page in Esri JSON (`f=json`) as GeoJSON `Feature` objects, byte to byte.
    ///
    /// The reference conversion builds a JSON tree for the page, a ``Feature`` per feature and then writes
    /// GeoJSON again; on large pages that is most of the engine's CPU time. This transcoder walks the page's
    /// bytes once with ``JSONByteScanner`` and copies what GeoJSON can take as it is: each feature's
    /// `attributes` object becomes its `properties` verbatim, and WGS 84 coordinates keep their number text.
    ///
    /// Whatever the fast path does not handle goes the reference way, so the two agree on what they accept,
    /// on the errors they throw and, as JSON values, on what they write:
    /// - one unusual geometry (an envelope, several outer rings, unclosed rings, a geometry-level spatial
    ///   reference...) is decoded with ``EsriJSON`` and written with ``GeoJSON`` on its own;
    /// - anything else unusual (a page not in WGS 84, an error body, broken JSON, a feature without an object
    ///   id, a GeoJSON-shaped page...) sends the whole page through ``featurePage(_:layer:objectIdField:limits:)``
    ///   and ``FeatureGeoJSON``, whose errors are then the ones thrown.
    ///
    /// Each feature is written as `{"type":"Feature","id":<objectId>,"geometry":<GeoJSON or null>,"properties":{...}}`.
    /// Properties keep the service's member order (the reference puts ``FeaturePage/fieldOrder`` first) and
    /// coordinates their text; Z and M values are dropped, as the reference drops them. An attribute name
    /// repeated within one feature is copied twice: JSON readers keep the last, the value the reference keeps.
    static func geoJSONPage(
        _ body: [UInt8], layer: String, objectIdField: String, limits: DecodingLimits = .default
    ) throws(FeatureServiceError) -> GeoJSONPage {
        if let outcome = GeoJSONPageTranscoder.transcode(body, objectIdField: objectIdField, limits: limits) {
            return outcome.page
        }
        return try geoJSONPageThroughFeaturePage(body, layer: layer, objectIdField: objectIdField, limits: limits)
    }

    /// The reference conversion, with `limits`: ``featurePage(_:layer:objectIdField:limits:)``, then
    /// ``FeatureGeoJSON/write(_:fieldOrder:layer:to:)`` per feature. Used for every page the transcoder hands
    /// back, so that errors and projections are the reference's own; private behind
    /// ``geoJSONPage(_:layer:objectIdField:limits:)``, the one entry point.
    private static func geoJSONPageThroughFeaturePage(
        _ body: [UInt8], layer: String, objectIdField: String, limits: DecodingLimits
    ) throws(FeatureServiceError) -> GeoJSONPage {
        let page = try featurePage(body, layer: layer, objectIdField: objectIdField, limits: limits)
        var text = ""
        var entries: [GeoJSONPage.Entry] = []
        entries.reserveCapacity(page.features.count)
        for feature in page.features {
            let start = text.utf8.count
            try FeatureGeoJSON.write(feature, fieldOrder: page.fieldOrder, layer: layer, to: &text)
            entries.append(.init(objectId: feature.objectId, start: start, end: text.utf8.count))
        }
        return GeoJSONPage(
            bytes: Array(text.utf8), entries: entries, exceededTransferLimit: page.exceededTransferLimit,
            objectIdFieldName: page.objectIdFieldName)
    }
}

/// The byte-level Esri JSON → GeoJSON page transcoder behind ``ArcGISResponse/geoJSONPage(_:layer:objectIdField:limits:)``.
///
/// It never throws to its caller: every step either succeeds on input the reference path would also accept
/// with the same result, or gives up (a `JSONScanFailure`, whatever its reason), and the caller runs the
/// reference path, which then produces the exact error. Giving up costs one wasted scan, and happens only on
/// pages that are broken or unusual.
struct GeoJSONPageTranscoder {
    /// What a successful transcoding produced; `geometryFallbacks` counts the geometries that went through
    /// ``EsriJSON``/``GeoJSON`` one by one (for tests and profiling).
    struct Outcome {
        var page: GeoJSONPage
        var geometryFallbacks: Int
    }

    var scanner: JSONByteScanner
    let limits: DecodingLimits
    let objectIdField: String

    /// The response's `objectIdFieldName`, once the top-level scan has passed it.
    var objectIdFieldName: String?
    /// Whether `objectIdFieldName` is settled: the member came before `features`, or the features are being
    /// transcoded a second time after the whole top level was read.
    var objectIdFieldNameSettled = false
    /// The page's spatial reference as the reference path reads it (nil when absent or unreadable).
    var spatialReference: SpatialReference?
    /// The attribute key that held the last feature's object id (the reference path's `resolvedKey`).
    var resolvedKey: ResolvedKey?

    var output: [UInt8] = []
    var entries: [GeoJSONPage.Entry] = []
    /// A geometry that comes before its feature's attributes (and so before the id the feature's head
    /// needs): written here, then copied after the head.
    var geometryOutput: [UInt8] = []
    /// Where the geometry being written starts in ``output``.
    var geometryStart = 0
    /// The current polygon's vertices (number text and values), for winding and reversal.
    var ringPositions: [PositionText] = []
    var rings: [RingInfo] = []
    /// The current geometry's vertex count, against ``DecodingLimits/maxPositions``.
    var positionCount = 0
    var geometryFallbacks = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, objectIdField: String, limits: DecodingLimits) {
        scanner = JSONByteScanner(bytes, from: start, maxDepth: limits.maxDepth)
        self.limits = limits
        self.objectIdField = objectIdField
    }

    /// The transcoded page, or nil when the reference path must decide.
    static func transcode(_ body: [UInt8], objectIdField: String, limits: DecodingLimits) -> Outcome? {
        body.withUnsafeBufferPointer { buffer -> Outcome? in
            // The limits are checked up front exactly as the reference parser checks them; a nesting limit
            // below what a polygon page needs (8 levels) is left to the reference path to report.
            guard let start = jsonStart(buffer), buffer.count - start <= limits.maxBytes, limits.maxDepth >= 8,
                JSONTextCheck.isWellFormed(buffer, from: start)
            else { return nil }
            var transcoder = GeoJSONPageTranscoder(buffer, start: start, objectIdField: objectIdField, limits: limits)
            do throws(JSONScanFailure) {
                return try transcoder.run()
            } catch {
                return nil
            }
        }
    }

    /// Where the JSON starts after a byte-order mark and whitespace; nil for an empty or HTML body (the
    /// reference path has the messages for those).
    private static func jsonStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        return index
    }

    /// The failure that hands the page to the reference path.
    func giveUp(_ reason: String) -> JSONScanFailure {
        JSONScanFailure(kind: .invalid, offset: scanner.index, reason: "not for the fast path: \(reason)")
    }

    // MARK: The top level

    /// The top-level members the page needs, as byte ranges, read after the scan.
    private struct TopLevel {
        var features: Int?
        /// `fields` is only checked (syntax, once): its names' order is not needed.
        var sawFields = false
        var exceeded: Range<Int>?
        var properties: Range<Int>?
        var sawSpatialReference = false
        var sawObjectIdFieldName = false
        /// The features were skipped because an id needed `objectIdFieldName`, which came later.
        var deferred = false
    }

    /// Scans the top-level object once, transcoding `features` when it comes; reads the small members
    /// (`spatialReference`, `objectIdFieldName`, the transfer-limit flag) with ``ParsedJSON``.
    private mutating func run() throws(JSONScanFailure) -> Outcome {
        let bodySize = scanner.bytes.count
        output.reserveCapacity(bodySize + bodySize / 8)
        var top = TopLevel()
        scanner.index += 1  // {, depth 1
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") { throw giveUp("no features") }
        var more = true
        while more {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { throw giveUp("a top-level member name expected") }
            let key = try scanner.scanString()
            guard !key.hasEscapes else { throw giveUp("a top-level member name with escapes") }
            try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
            scanner.skipWhitespace()
            let start = scanner.index
            if scanner.spanEquals(key, "features") {
                guard top.features == nil else { throw giveUp("two features members") }
                top.features = start
                if try !transcodeFeatures() {
                    top.deferred = true
                    scanner.index = start
                    try scanner.skipValue(depth: 1)
                }
            } else if scanner.spanEquals(key, "spatialReference") {
                guard !top.sawSpatialReference else { throw giveUp("two spatialReference members") }
                top.sawSpatialReference = true
                try scanner.skipValue(depth: 1)
                spatialReference = try readSpatialReference(start..<scanner.index)
            } else if scanner.spanEquals(key, "objectIdFieldName") {
                guard !top.sawObjectIdFieldName else { throw giveUp("two objectIdFieldName members") }
                top.sawObjectIdFieldName = true
                try scanner.skipValue(depth: 1)
                let name = try parse(start..<scanner.index).stringValue
                objectIdFieldName = name.flatMap { $0.isEmpty ? nil : $0 }
                if top.features == nil { objectIdFieldNameSettled = true }
            } else if scanner.spanEquals(key, "fields") {
                guard !top.sawFields else { throw giveUp("a repeated top-level member") }
                top.sawFields = true
                try scanner.skipValue(depth: 1)
            } else if scanner.spanEquals(key, "exceededTransferLimit") {
                top.exceeded = try skipMember(once: top.exceeded, from: start)
            } else if scanner.spanEquals(key, "properties") {
                top.properties = try skipMember(once: top.properties, from: start)
            } else if scanner.spanEquals(key, "error") || scanner.spanEquals(key, "status") {
                throw giveUp("maybe an error body")
            } else {
                try scanner.skipValue(depth: 1)
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): scanner.index += 1; more = false
            default: throw giveUp("',' or '}' expected in the top-level object")
            }
        }
        try scanner.expectEnd()
        guard let featuresStart = top.features else { throw giveUp("no features") }
        if top.deferred {
            objectIdFieldNameSettled = true
            output.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            resolvedKey = nil
            geometryFallbacks = 0
            scanner.index = featuresStart
            guard try transcodeFeatures() else { throw giveUp("an object id is still missing") }
        }
        return Outcome(page: try page(top), geometryFallbacks: geometryFallbacks)
    }

    /// Skips a member that may appear once and returns its value's range.
    private mutating func skipMember(once seen: Range<Int>?, from start: Int) throws(JSONScanFailure) -> Range<Int> {
        guard seen == nil else { throw giveUp("a repeated top-level member") }
        try scanner.skipValue(depth: 1)
        return start..<scanner.index
    }

    /// The page, with the transfer-limit flag read as the reference path reads it. `fields` is only checked
    /// for syntax (and to appear once): a GeoJSON page's properties are the attributes as the server wrote them,
    /// so the names' order is not needed (reading it into a tree cost 1.7 % of a `features` request).
    private func page(_ top: TopLevel) throws(JSONScanFailure) -> GeoJSONPage {
        var exceeded: Bool?
        if let range = top.exceeded { exceeded = try parse(range).boolValue }
        if exceeded == nil, let range = top.properties { exceeded = try parse(range)["exceededTransferLimit"]?.boolValue }
        return GeoJSONPage(
            bytes: output, entries: entries, exceededTransferLimit: exceeded ?? false, objectIdFieldName: objectIdFieldName)
    }

    /// The page's spatial reference as the reference path reads it: an object that decodes, else nil. A page
    /// in any other system than WGS 84 needs projecting, which the reference path does.
    private func readSpatialReference(_ range: Range<Int>) throws(JSONScanFailure) -> SpatialReference? {
        let value = try parse(range)
        guard case .object = value, let reference = try? EsriJSON.decodeSpatialReference(value) else { return nil }
        guard reference.isWGS84 else { throw giveUp("the page is in \(reference), not WGS 84") }
        return reference
    }

    /// A small, already validated value as a tree.
    func parse(_ range: Range<Int>) throws(JSONScanFailure) -> ParsedJSON {
        guard let value = try? ParsedJSON(reading: UnsafeBufferPointer(rebasing: scanner.bytes[range]), limits: limits.jsonReading) else {
            throw giveUp("a member the reference parser refuses")
        }
        return value
    }
}
