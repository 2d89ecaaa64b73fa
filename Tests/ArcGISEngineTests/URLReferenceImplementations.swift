@testable import ArcGISEngine

/// The URL code the byte-level versions replaced, as the reference the equivalence tests compare against:
/// the `Character` paths the sources keep for unusual text, and the old form encoding.
enum ReferenceURLs {
    /// `LayerURL(parsing:)` as it was: the `Character` parser, which the byte parser replaced for ASCII text.
    static func layerURL(_ text: String) throws(ArcGISError) -> (serviceURL: String, layerId: Int?, origin: String) {
        let url = try LayerURL.parseCharacters(text)
        return (url.serviceURL, url.layerId, url.origin)
    }

    /// `ArcGISResponse.normalizedURL(_:)` as it was: always on `Character`s.
    static func normalizedURL(_ url: String) -> String {
        ArcGISResponse.normalizedURLByCharacters(url)
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
