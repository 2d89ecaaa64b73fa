import FeatureQuerySupport

extension RequestValidation {
    /// The target of a URL in the plain form nearly every request has, read from its bytes; nil for anything
    /// else, which `URLComponents` then judges (and names in its error).
    ///
    /// Every request is validated, and `URLComponents` costs more than the rest of building a request. This
    /// takes only what is unambiguous: `http://` or `https://` (any case), a host of ASCII letters, digits,
    /// `.` and `-` (no user info, no IP-literal, no percent-encoding, no `--`: `URLComponents` decodes
    /// punycode labels such as `xn--bcher-kva`), an optional port of 1 to 5 digits
    /// without a leading zero within 1...65535, then nothing, or a path, query and fragment of RFC 3986
    /// characters (`%` only before two hex digits, one `#` at most). A test checks that it agrees with
    /// `URLComponents` over generated URLs, odd ones included.
    static func fastTarget(_ url: String) -> Target? {
        fastScan(url)?.target
    }

    /// What ``fastScan(_:)`` reads from a plain URL: its target, and where its parts start, for
    /// ``CurlOriginForm``.
    struct FastURL {
        var target: Target
        /// Byte offset of the first byte after the authority (`/`, `?` or `#`); the URL's length when none.
        var pathStart: Int
        /// Byte offset of the `?` that starts the query; nil when there is none (a `?` in the fragment
        /// does not count).
        var queryStart: Int?
        /// Whether the URL has a `#` fragment.
        var hasFragment: Bool
        /// Whether the path holds `/.`: a dot segment libcurl would remove (or a name starting with a dot).
        var pathHasDotSegment: Bool
        /// The URL's length in bytes.
        var length: Int
    }

    /// ``fastTarget(_:)`` with the offsets of the URL's parts.
    static func fastScan(_ url: String) -> FastURL? {
        var url = url
        return url.withUTF8 { bytes -> FastURL? in
            let https: Bool
            var index: Int
            if hasLowercasedPrefix(bytes, "https://") {
                (https, index) = (true, 8)
            } else if hasLowercasedPrefix(bytes, "http://") {
                (https, index) = (false, 7)
            } else {
                return nil
            }
            // The sets once per URL: their getters live in another module and are not inlined here.
            let hostBytes = ASCIIByteSet.hostName
            let queryBytes = ASCIIByteSet.queryCharacter
            let hostStart = index
            var hasDoubleHyphen = false
            while index < bytes.count, isMember(bytes[index], of: hostBytes) {
                if bytes[index] == UInt8(ascii: "-"), index > hostStart, bytes[index - 1] == UInt8(ascii: "-") { hasDoubleHyphen = true }
                index += 1
            }
            let hostEnd = index
            // "--" may be a punycode label ("xn--"), which `URLComponents` gives back decoded.
            guard hostEnd > hostStart, !hasDoubleHyphen else { return nil }
            var port = https ? 443 : 80
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let portStart = index
                var value = 0
                while index < bytes.count, index - portStart < 5, let digit = digitValue(bytes[index]) {
                    value = value * 10 + digit
                    index += 1
                }
                guard index > portStart, bytes[portStart] != UInt8(ascii: "0"), value <= 65535 else { return nil }
                port = value
            }
            let pathStart = index
            var queryStart: Int?
            var inFragment = false
            var pathHasDotSegment = false
            if index < bytes.count {
                let next = bytes[index]
                guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else { return nil }
                while index < bytes.count {
                    let byte = bytes[index]
                    if isMember(byte, of: queryBytes) {
                        if queryStart == nil, !inFragment {
                            if byte == UInt8(ascii: "?") {
                                queryStart = index
                            } else if byte == UInt8(ascii: "."), index > pathStart, bytes[index - 1] == UInt8(ascii: "/") {
                                pathHasDotSegment = true
                            }
                        }
                        index += 1
                    } else if byte == UInt8(ascii: "%") {
                        guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                            return nil
                        }
                        index += 3
                    } else if byte == UInt8(ascii: "#"), !inFragment {
                        inFragment = true
                        index += 1
                    } else {
                        return nil
                    }
                }
            }
            let host = String(unsafeUninitializedCapacity: hostEnd - hostStart) { buffer in
                for offset in 0..<(hostEnd - hostStart) {
                    let byte = bytes[hostStart + offset]
                    buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return hostEnd - hostStart
            }
            return FastURL(
                target: Target(scheme: https ? "https" : "http", host: host, port: port),
                pathStart: pathStart,
                queryStart: queryStart,
                hasFragment: inFragment,
                pathHasDotSegment: pathHasDotSegment,
                length: bytes.count
            )
        }
    }

    private static func hasLowercasedPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in
            for offset in 0..<prefix.count {
                let byte = bytes[offset]
                if ASCII.lowercase(byte) != prefix[offset] { return false }
            }
            return true
        }
    }

    /// `ASCIIByteSet.contains`, here so that it is inlined into the loops over every byte of every URL.
    @inline(__always)
    private static func isMember(_ byte: UInt8, of set: ASCIIByteSet) -> Bool {
        byte < 64 ? (set.low &>> UInt64(byte)) & 1 != 0 : byte < 128 && (set.high &>> UInt64(byte &- 64)) & 1 != 0
    }

    @inline(__always)
    private static func digitValue(_ byte: UInt8) -> Int? {
        ASCII.digitValue(byte).map { Int($0) }
    }

    @inline(__always)
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        ASCII.hexValue(byte) != nil
    }
}
