import FeatureQuerySupport

/// AWS Signature Version 4's URI encoding: RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) as they
/// are, every other UTF-8 byte as `%XX` in upper case, and `/` kept in object-key paths.
///
/// The client writes paths and queries in exactly this form because libcurl 7.88 signs the path and query as
/// written (it does not canonicalise them), and S3 compares against the canonical form.
enum AWSURIEncoding {
    static func encode(_ text: String, keepingSlash: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(ASCII.uppercaseHexDigit(byte >> 4))
                bytes.append(ASCII.uppercaseHexDigit(byte & 0x0F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A canonical query string: names and values encoded, sorted by encoded name then value, each pair with
    /// `=` even when the value is empty (`uploads=`).
    static func canonicalQuery(_ parameters: [(String, String)]) -> String {
        parameters
            .map { (encode($0.0), encode($0.1)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
