/// Percent-decoding of URL paths, query strings and `application/x-www-form-urlencoded` bodies, without
/// Foundation, written once for the sample server and the tests' fake servers (which read arguments as ArcGIS
/// and OGC servers do).
///
/// Both run inside Hummingbird, but its public decoding reads arguments differently: `uri.queryParameters`
/// keeps `+` (which CurlHTTP's form encoding, HTML forms and Python clients send for a space), leaves names
/// encoded, drops the decoding of a whole value for one bad escape and reads no form body; the decoder behind
/// it is internal to Hummingbird. The worker itself decodes nothing; this lives here because the sample
/// server and the test servers share nothing else.
package enum PercentDecoding {
    /// `text` with each `%XX` escape decoded; with `plusAsSpace` (form encoding) a `+` is a space, in a path it
    /// stays a plus. A malformed escape (`%zz`, a `%` near the end) is kept as it is, as servers do.
    package static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String {
        let plus = plusAsSpace ? UInt8(ascii: "+") : nil
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == plus }) else { return String(text) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == plus {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The `name=value` pairs of a query string or form body (`a=1&b&c=x+y`), decoded, in order; a bare name has
    /// an empty value, empty pairs are skipped.
    package static func formPairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? decode(parts[1], plusAsSpace: true) : ""
            return (decode(parts[0], plusAsSpace: true), value)
        }
    }
}
