import FeatureQuerySupport
import FeatureService

/// A FeatureServer or MapServer URL taken apart: the service, and the layer if the URL names one.
///
/// Targets arrive as text from messages, so the URL is checked before anything is sent: http(s) only, a
/// `/FeatureServer` or `/MapServer` segment, an optional numeric layer id after it, nothing else. The query
/// string and fragment are dropped (tokens never travel in the URL we keep).
///
/// The engine parses a target once and passes the parsed value on (its layers, its metadata requests), so a
/// query of one layer parses one URL.
struct LayerURL: Hashable, Sendable {
    /// `https://host/arcgis/rest/services/Name/MapServer`
    let serviceURL: String
    let layerId: Int?
    /// `scheme://host[:port]`, the key of the per-host limit.
    let origin: String
    /// The service URL, followed by `/<layerId>` for a layer: what messages, caches and results name. Kept,
    /// not computed, since every request of a query names it.
    let url: String

    func layer(_ id: Int) -> LayerURL {
        LayerURL(serviceURL: serviceURL, layerId: id, origin: origin)
    }

    init(serviceURL: String, layerId: Int?, origin: String) {
        self.serviceURL = serviceURL
        self.layerId = layerId
        self.origin = origin
        url = layerId.map { "\(serviceURL)/\($0)" } ?? serviceURL
    }

    /// Parses and checks `text`.
    ///
    /// ASCII text (every URL a service hands out, and every URL this engine builds) is parsed on its UTF-8
    /// bytes. Other text takes the `Character` path, whose rules it must keep: there a `/`, `?` or `#`
    /// followed by a combining mark is one `Character` that is none of them, which bytes cannot tell. Both
    /// give the same results and messages for ASCII (a test compares them over generated URLs).
    init(parsing text: String) throws(FeatureServiceError) {
        var bytes = text
        let parsed = bytes.withUTF8 { Self.parseASCII($0, text: text) }
        switch parsed {
        case .success(let url)?: self = url
        case .failure(let error)?: throw error
        case nil: self = try Self.parseCharacters(text)
        }
    }

    // MARK: Bytes (ASCII)

    /// The byte parser; nil when `bytes` is not all ASCII.
    private static func parseASCII(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Result<LayerURL, FeatureServiceError>? {
        var end = 0
        var cut: Int?
        while end < bytes.count {
            let byte = bytes[end]
            if byte >= 0x80 { return nil }
            if cut == nil, byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { cut = end }
            end += 1
        }
        end = cut ?? bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let trimmedEnd = end
        /// The first 300 characters of the trimmed text, for messages (only built for one).
        func shown() -> String {
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: trimmedEnd)
            return String(text[..<index].prefix(300))
        }

        let schemeLength: Int
        if hasLowercasedPrefix(bytes, end: end, "https://") {
            schemeLength = 8
        } else if hasLowercasedPrefix(bytes, end: end, "http://") {
            schemeLength = 7
        } else {
            let shown = shown()
            return .failure(FeatureServiceError(.invalidURL, "\(shown) is not an http(s) URL", layer: shown))
        }
        var hostEnd = schemeLength
        while hostEnd < end, bytes[hostEnd] != UInt8(ascii: "/") { hostEnd += 1 }
        var hostIsValid = hostEnd > schemeLength
        for index in schemeLength..<hostEnd where bytes[index] == UInt8(ascii: "@") || isASCIIWhitespace(bytes[index]) {
            hostIsValid = false
        }
        guard hostIsValid else {
            let shown = shown()
            return .failure(FeatureServiceError(.invalidURL, "\(shown) has no valid host", layer: shown))
        }

        // The last FeatureServer or MapServer segment (empty segments, from `//`, are skipped), then what follows.
        var serverEnd: Int?
        var start = hostEnd
        while let segment = nextSegment(bytes, from: start, end: end) {
            if equals(bytes, segment, "FeatureServer") || equals(bytes, segment, "MapServer") { serverEnd = segment.upperBound }
            start = segment.upperBound
        }
        guard let serverEnd else {
            let shown = shown()
            return .failure(FeatureServiceError(
                .invalidURL, "\(shown) is not a FeatureServer or MapServer URL (expected …/FeatureServer or "
                    + "…/MapServer, optionally followed by a layer id)", layer: shown))
        }
        let idSegment = nextSegment(bytes, from: serverEnd, end: end)
        if let idSegment, nextSegment(bytes, from: idSegment.upperBound, end: end) != nil {
            let shown = shown()
            return .failure(FeatureServiceError(.invalidURL, "\(shown) has extra path segments after the layer id", layer: shown))
        }
        var layerId: Int?
        if let idSegment {
            guard let id = layerNumber(bytes, idSegment) else {
                let shown = shown()
                let idText = String(decoding: UnsafeBufferPointer(rebasing: bytes[idSegment]), as: UTF8.self)
                return .failure(FeatureServiceError(.invalidURL, "\(shown): '\(idText)' is not a layer id", layer: shown))
            }
            layerId = id
        }

        let origin = String(unsafeUninitializedCapacity: hostEnd) { buffer in
            for index in 0..<hostEnd { buffer[index] = asciiLowercase(bytes[index]) }
            return hostEnd
        }
        // The origin, then each non-empty segment up to the server's, after one "/".
        let serviceURL = String(unsafeUninitializedCapacity: serverEnd) { buffer in
            for index in 0..<hostEnd { buffer[index] = asciiLowercase(bytes[index]) }
            var written = hostEnd
            var start = hostEnd
            while let segment = nextSegment(bytes, from: start, end: serverEnd) {
                buffer[written] = UInt8(ascii: "/")
                written += 1
                for index in segment {
                    buffer[written] = bytes[index]
                    written += 1
                }
                start = segment.upperBound
            }
            return written
        }
        return .success(LayerURL(serviceURL: serviceURL, layerId: layerId, origin: origin))
    }

    /// The next non-empty `/`-separated segment at or after `from`, before `end`.
    @inline(__always)
    private static func nextSegment(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Range<Int>? {
        var start = from
        while start < end, bytes[start] == UInt8(ascii: "/") { start += 1 }
        guard start < end else { return nil }
        var stop = start
        while stop < end, bytes[stop] != UInt8(ascii: "/") { stop += 1 }
        return start..<stop
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { word in
            var offset = 0
            while offset < word.count {
                if bytes[range.lowerBound + offset] != word[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    private static func hasLowercasedPrefix(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, _ prefix: StaticString) -> Bool {
        guard end >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in
            var offset = 0
            while offset < prefix.count {
                if asciiLowercase(bytes[offset]) != prefix[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// A layer id as `Int(_:)` reads the segment (an optional sign, then decimal digits, within `Int`'s
    /// range) and the engine accepts it (not negative; `-0` is 0).
    private static func layerNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative || bytes[index] == UInt8(ascii: "+") { index += 1 }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return negative && value != 0 ? nil : value
    }

    @inline(__always)
    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        ASCII.lowercase(byte)
    }

    /// `Character.isWhitespace` for ASCII.
    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        ASCII.isCharacterWhitespace(byte)
    }

    // MARK: Characters (non-ASCII text)

    /// The parser on `Character`s: right for any text; private behind ``init(parsing:)``, which sends it
    /// only non-ASCII text. (The equivalence tests keep a copy as their oracle.)
    private static func parseCharacters(_ text: String) throws(FeatureServiceError) -> LayerURL {
        var trimmed = Substring(text)
        if let cut = trimmed.firstIndex(where: { $0 == "?" || $0 == "#" }) { trimmed = trimmed[..<cut] }
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let shown = String(trimmed.prefix(300))
        let lower = trimmed.lowercased()
        let schemeLength: Int
        if lower.hasPrefix("https://") { schemeLength = 8 } else if lower.hasPrefix("http://") { schemeLength = 7 } else {
            throw FeatureServiceError(.invalidURL, "\(shown) is not an http(s) URL", layer: shown)
        }
        let afterScheme = trimmed.dropFirst(schemeLength)
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let authority = afterScheme[..<hostEnd]
        guard !authority.isEmpty, !authority.contains("@"),
            authority.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else {
            throw FeatureServiceError(.invalidURL, "\(shown) has no valid host", layer: shown)
        }
        let segments = afterScheme[hostEnd...].split(separator: "/", omittingEmptySubsequences: true)
        guard let serverIndex = segments.lastIndex(where: { $0 == "FeatureServer" || $0 == "MapServer" }) else {
            throw FeatureServiceError(
                .invalidURL, "\(shown) is not a FeatureServer or MapServer URL (expected …/FeatureServer or "
                    + "…/MapServer, optionally followed by a layer id)", layer: shown)
        }
        let rest = segments[(serverIndex + 1)...]
        guard rest.count <= 1 else {
            throw FeatureServiceError(.invalidURL, "\(shown) has extra path segments after the layer id", layer: shown)
        }
        var layerId: Int?
        if let idText = rest.first {
            guard let id = Int(idText), id >= 0 else {
                throw FeatureServiceError(.invalidURL, "\(shown): '\(idText)' is not a layer id", layer: shown)
            }
            layerId = id
        }
        let origin = trimmed.prefix(schemeLength).lowercased() + authority.lowercased()
        let servicePath = segments[...serverIndex].joined(separator: "/")
        return LayerURL(serviceURL: origin + "/" + servicePath, layerId: layerId, origin: origin)
    }
}
