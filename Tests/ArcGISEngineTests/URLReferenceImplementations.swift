import FeatureService

@testable import ArcGISEngine

/// The URL code the byte-level versions replaced, as the oracle the equivalence tests compare against: the
/// `Character` parsers (the sources keep their own copies private, behind the one entry point, for unusual
/// text) and the old form encoding.
enum ReferenceURLs {
    /// `LayerURL(parsing:)` as it was: the `Character` parser, which the byte parser replaced for ASCII text.
    static func layerURL(_ text: String) throws(FeatureServiceError) -> (serviceURL: String, layerId: Int?, origin: String) {
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
        return (origin + "/" + servicePath, layerId, origin)
    }

    /// `ArcGISResponse.normalizedURL(_:)` as it was: always on `Character`s.
    static func normalizedURL(_ url: String) -> String {
        var text = Substring(url)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
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

    /// `HTTPRequest.formEncode(_:)` as it was.
    static func formEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count >= 2 ? hex : "0" + hex)
            }
        }
        return result
    }

    /// `QueryParameters.encoded` as it was.
    static func encoded(_ fields: [(String, String)]) -> String {
        fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
    }
}
