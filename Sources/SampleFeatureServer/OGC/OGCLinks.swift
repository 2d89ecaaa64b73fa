
/// Builds the hrefs of the OGC face's documents: absolute on the origin the client used (its `Host`
/// header), or relative and on another origin when the mount's quirks say so.
struct OGCLinks: Sendable {
    /// `http://127.0.0.1:8080`.
    let origin: String
    /// The mount's path, e.g. `/ogc`.
    let base: String
    let quirks: OGCQuirks

    init(host: String?, fallbackOrigin: String, route: OGCRoute) {
        origin = host.map { "http://" + $0 } ?? fallbackOrigin
        base = route.base
        quirks = route.quirks
    }

    /// An absolute href for a path under the mount (`""` is the landing page).
    func href(_ path: String, _ query: [SampleRequest.Parameter] = []) -> String {
        origin + base + path + Self.queryString(query)
    }

    /// The origin with `127.0.0.1` and `localhost` swapped: the same server under another origin.
    var otherOrigin: String {
        if origin.contains("127.0.0.1") { return origin.replacingFirst("127.0.0.1", with: "localhost") }
        if origin.contains("localhost") { return origin.replacingFirst("localhost", with: "127.0.0.1") }
        return origin.replacingFirst("http://", with: "http://127.0.0.2.")
    }

    /// An items page's href (`self` or `next`), relative (`items?...`) under the `relative-links` quirk.
    func itemsHref(_ collection: String, _ query: [SampleRequest.Parameter], next: Bool) -> String {
        if quirks.has(.relativeLinks) { return "items" + Self.queryString(query) }
        let host = next && quirks.has(.otherOrigin) ? otherOrigin : origin
        return host + base + "/collections/" + Self.pathSegment(collection) + "/items" + Self.queryString(query)
    }

    static func queryString(_ query: [SampleRequest.Parameter]) -> String {
        guard !query.isEmpty else { return "" }
        return "?" + query.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    static func pathSegment(_ text: String) -> String { encode(text) }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output.append("%")
                output.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                output.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0xF)]))
            }
        }
        return output
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let characters = Array(self)
        let wanted = Array(target)
        guard !wanted.isEmpty, characters.count >= wanted.count else { return self }
        for start in 0...(characters.count - wanted.count) where Array(characters[start..<start + wanted.count]) == wanted {
            return String(characters[..<start]) + replacement + String(characters[(start + wanted.count)...])
        }
        return self
    }
}
