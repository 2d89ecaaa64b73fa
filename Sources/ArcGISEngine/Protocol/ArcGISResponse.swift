import FeatureQuerySupport
import FeatureService
import FeatureGeometry

/// Turns every ArcGIS REST response the engine receives into typed values or one ``FeatureServiceError``.
///
/// The engine asks a layer for metadata, ids, counts and feature pages; each answer can fail in the same
/// handful of ways: an HTTP status, an ArcGIS error body sent with HTTP 200 (`{"error":{...}}`, or the admin
/// shape `{"status":"error","messages":[...],"code":498}`), an HTML page from a proxy or login screen, an
/// empty or truncated body, or JSON of the wrong shape. Every decoder here recognises all of them first, so
/// the caller handles one error type whose `code`, `isRetryable` and message are already right.
///
/// Messages name the layer URL without its query (so never a `token=`), and say what was seen.
///
/// Call ``checkStatus(_:headers:body:layer:now:)`` on every response first, then the decoder for the request:
/// ``layerMetadata(_:url:)``, ``serviceMetadata(_:url:)``, ``objectIDs(_:layer:)``, ``count(_:layer:)`` or
/// ``featurePage(_:layer:objectIdField:limits:)``. Transfers that fail below HTTP become errors through
/// ``transportError(_:layer:)``.
enum ArcGISResponse {
    /// A `returnCountOnly=true` answer: `{"count": N}`.
    ///
    /// Throws `.malformedResponse` when `count` is missing or is not a non-negative integer, and the mapped
    /// error for an ArcGIS error body.
    static func count(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> Int {
        // `{"count":N}`, the answer nearly every time, read from its bytes (before the context, which
        // normalises the layer's URL for messages); anything else through the JSON tree.
        if let count = plainCount(body, from: 0) { return count }
        let context = ResponseContext(layer: layer)
        if let count = plainCount(body, from: try context.jsonStart(body)) { return count }
        return try documentCount(body, context: context)
    }

    /// ``count(_:layer:)`` through the JSON tree: every body, with every error.
    static func documentCount(_ body: [UInt8], context: ResponseContext) throws(FeatureServiceError) -> Int {
        let members = try context.document(body, limits: .default, expecting: "a count")
        guard let value = members["count"] else {
            throw context.malformed("has no \"count\" member, so it is not an answer to returnCountOnly")
        }
        guard let count = value.integerValue, count >= 0 else {
            throw context.malformed("gives a count that is not a non-negative integer: \(value.shapeDescription)")
        }
        return count
    }

    /// The URL as messages and metadata name it: no query string or fragment (where a `token=` would be), no
    /// user name or password, no trailing slash.
    ///
    /// Use it as the key of a layer wherever a URL may carry secrets; it is what ``FeatureServiceError/layer`` and
    /// ``LayerMetadata/url`` hold.
    static func normalizedURL(_ url: String) -> String {
        // Every decoder normalises the layer it names, almost always a URL the engine built (normal already):
        // a byte check returns those as they are, without the `Character` work below.
        if isNormalASCIIURL(url) { return url }
        return normalizedURLByCharacters(url)
    }

    /// ``normalizedURL(_:)`` on `Character`s: right for any text; private behind ``normalizedURL(_:)``,
    /// which sends it only what the byte check cannot pass. (The equivalence tests keep a copy as their oracle.)
    private static func normalizedURLByCharacters(_ url: String) -> String {
        var text = Substring(url).trimmingWhitespace()
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            text = text[..<cut]
        }
        if let schemeEnd = text.firstRange(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                text = text[..<authorityStart] + text[text.index(after: at)...]
            }
        }
        let minimumLength = (text.firstRange(of: "://").map { text.distance(from: text.startIndex, to: $0.upperBound) } ?? 0) + 1
        while text.count > minimumLength, text.last == "/" {
            text = text.dropLast()
        }
        return String(text)
    }

    /// Whether `normalizedURL` would return `url` unchanged, told from its bytes alone: ASCII (so
    /// `Character`s are bytes, but for "\r\n", whose bytes are white space anyway), no white space at either
    /// end, no `?` or `#`, no `@` in the authority, no trailing `/`. False sends a URL the long way, which is
    /// always right.
    static func isNormalASCIIURL(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, !isASCIIWhitespace(first), !isASCIIWhitespace(last),
                last != UInt8(ascii: "/")
            else { return false }
            // 0: before "://", 1: in the authority, 2: after it.
            var part = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
                switch part {
                case 0 where byte == UInt8(ascii: ":") && index + 2 < bytes.count
                    && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/"):
                    part = 1
                    index += 2
                case 1 where byte == UInt8(ascii: "@"):
                    return false
                case 1 where byte == UInt8(ascii: "/"):
                    part = 2
                default:
                    break
                }
                index += 1
            }
            return true
        }
    }

    /// `Character.isWhitespace` of an ASCII byte.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        ASCII.isCharacterWhitespace(byte)
    }

    /// `text` with the value of every `token=` parameter replaced, for server messages and pages that may
    /// echo the request URL back.
    static func redactingTokens(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        let marker = Array("token=".utf8)
        guard utf8.count >= marker.count else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = 0
        var changed = false
        while index < utf8.count {
            if index + marker.count <= utf8.count,
                (0..<marker.count).allSatisfy({ asciiLowercase(utf8[index + $0]) == marker[$0] })
            {
                output.append(contentsOf: utf8[index..<(index + marker.count)])
                index += marker.count
                var end = index
                while end < utf8.count, !isTokenTerminator(utf8[end]) { end += 1 }
                if end > index {
                    output.append(contentsOf: Array("<redacted>".utf8))
                    changed = true
                }
                index = end
                continue
            }
            output.append(utf8[index])
            index += 1
        }
        return changed ? String(decoding: output, as: UTF8.self) : text
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        ASCII.lowercase(byte)
    }

    private static func isTokenTerminator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), 0x20, 0x09, 0x0A, 0x0D:
            return true
        default:
            return false
        }
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(Substring(self).trimmingWhitespace())
    }
}
