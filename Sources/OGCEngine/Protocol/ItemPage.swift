import EngineExecution
import CurlHTTP
import FeatureQuerySupport
import FeatureService

/// One page of items: its features (as the bytes they arrived in, see ``RawFeature``), the server's
/// `numberMatched`, and its `next` link resolved against the URL that answered (RFC 3986), preferring
/// GeoJSON, then JSON, then an untyped link, never HTML.
///
/// The page is read with a byte scanner that checks the whole body's JSON syntax (so a body cut short is
/// told from a broken one) while it only records where each feature lies; `links` and `numberMatched` are
/// parsed.
struct ItemPage: Sendable {
    let url: String
    let features: [RawFeature]
    let numberMatched: Int?
    let next: String?

    /// Decodes a 2xx items answer. `Content-Crs`, when present, must be CRS84 (what the engine asks for by
    /// asking for no other): anything else is `crs_mismatch`, since the coordinates would be misread.
    static func decode(_ response: HTTPResponse, layer: String) throws(FeatureServiceError) -> ItemPage {
        if let crs = response.headers["Content-Crs"], !CRS84.isCRS84(crs) {
            throw FeatureServiceError(
                .crsMismatch,
                "\(layer) answered coordinates in \(crs) (Content-Crs) where CRS84 longitude/latitude was asked for",
                layer: layer, details: [crs])
        }
        let body = response.body
        let start = try OGCResponse.objectStart(response, layer: layer, expecting: "a GeoJSON FeatureCollection")
        let scanned = body.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONScanFailure) in try Scan.page(buffer, from: start) }
        }
        let scan: Scan
        do {
            scan = try scanned.get()
        } catch {
            let truncated = error.kind == .truncated
            throw OGCFailure.malformed(
                layer, "answered \(truncated ? "a JSON body cut short" : "invalid JSON") where a GeoJSON FeatureCollection "
                    + "was expected: \(error.reason) at byte \(error.offset)", retryable: truncated)
        }
        guard let ranges = scan.features else {
            throw OGCFailure.malformed(layer, "an items page has no `features` array, so it is not a FeatureCollection")
        }
        var features: [RawFeature] = []
        features.reserveCapacity(ranges.count)
        for range in ranges {
            do {
                features.append(try RawFeature(body[range]))
            } catch {
                throw OGCFailure.malformed(layer, "an items page holds a feature that is not an object: \(error.reason)")
            }
        }
        let links = scan.links.flatMap { try? ParsedJSON(reading: body[$0]) }.map { Link.links(of: .object(["links": $0])) } ?? []
        let next = Link.best(links, rel: ["next"]).map { URIReference.resolve($0.href, against: response.url) }
        let matched = scan.numberMatched.flatMap { try? ParsedJSON(reading: body[$0]) }?.countValue
        return ItemPage(url: response.url, features: features, numberMatched: matched, next: next)
    }

    /// Where a page's members lie in its body.
    private struct Scan {
        var features: [Range<Int>]?
        var links: Range<Int>?
        var numberMatched: Range<Int>?

        static func page(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONScanFailure) -> Scan {
            var scan = Scan()
            var scanner = JSONByteScanner(buffer, from: start)
            try scanner.expect(UInt8(ascii: "{"), "a FeatureCollection object")
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: "}") {
                scanner.index += 1
                try scanner.expectEnd()
                return scan
            }
            while true {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else {
                    throw scanner.failure("expected a member name in double quotes but found \(scanner.describeCurrent())")
                }
                let name = try scanner.scanString()
                try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
                scanner.skipWhitespace()
                let valueStart = scanner.index
                if scanner.spanEquals(name, "features"), scanner.current == UInt8(ascii: "[") {
                    scan.features = try featureRanges(&scanner)
                } else {
                    try scanner.skipValue(depth: 1)
                    if scanner.spanEquals(name, "links") { scan.links = valueStart..<scanner.index }
                    if scanner.spanEquals(name, "numberMatched") { scan.numberMatched = valueStart..<scanner.index }
                }
                scanner.skipWhitespace()
                switch scanner.current {
                case UInt8(ascii: ","): scanner.index += 1
                case UInt8(ascii: "}"):
                    scanner.index += 1
                    try scanner.expectEnd()
                    return scan
                default: throw scanner.failure("expected ',' or '}' in an object but found \(scanner.describeCurrent())")
                }
            }
        }

        private static func featureRanges(_ scanner: inout JSONByteScanner) throws(JSONScanFailure) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            scanner.index += 1  // [
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: "]") {
                scanner.index += 1
                return ranges
            }
            while true {
                scanner.skipWhitespace()
                let start = scanner.index
                try scanner.skipValue(depth: 2)
                ranges.append(start..<scanner.index)
                scanner.skipWhitespace()
                switch scanner.current {
                case UInt8(ascii: ","): scanner.index += 1
                case UInt8(ascii: "]"):
                    scanner.index += 1
                    return ranges
                default: throw scanner.failure("expected ',' or ']' in the features but found \(scanner.describeCurrent())")
                }
            }
        }
    }
}
