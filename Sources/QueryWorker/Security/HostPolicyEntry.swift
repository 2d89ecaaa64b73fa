extension HostPolicy {
    /// What an entry matches.
    enum Pattern: Hashable, Sendable {
        /// Exactly this host name (lowercased, no trailing dot).
        case host(String)
        /// Any host name that ends in `.` + this suffix (`*.arcgis.com` → `arcgis.com`); not the suffix itself.
        case subdomains(of: String)
        /// These addresses (a single address is a `/32` or `/128` range).
        case addresses(IPAddressRange)
    }

    /// One parsed `allowedHosts` entry.
    struct Entry: Hashable, Sendable, CustomStringConvertible {
        let pattern: Pattern
        /// The only port allowed; `nil` for any port.
        let port: Int?
        /// The entry as written.
        let text: String

        /// Parses `services.arcgis.com`, `*.arcgis.com`, `192.0.2.10`, `10.0.0.0/8`, `2001:db8::/32`,
        /// `[2001:db8::1]`, each optionally followed by `:port` (IPv6 in brackets then: `[::1]:8080`).
        init(parsing text: String) throws(HostPolicyError) {
            self.text = text
            let entry = HostName.trimmed(text).lowercased()
            func fail(_ why: String) -> HostPolicyError {
                HostPolicyError(code: .invalidEntry, message: "allowed host '\(text)' \(why)", entry: text)
            }
            guard !entry.isEmpty else { throw fail("is empty") }
            guard !entry.contains("://"), !entry.contains("@") else {
                throw fail("must be a host, optionally with :port, not a URL")
            }
            var hostPart = Substring(entry)
            var portPart: Substring?
            if entry.hasPrefix("[") {
                guard let close = entry.firstIndex(of: "]") else { throw fail("has '[' without ']'") }
                hostPart = entry[entry.index(after: entry.startIndex)..<close]
                let rest = entry[entry.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { throw fail("has text after ']' that is not :port") }
                    portPart = rest.dropFirst()
                }
            } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
                hostPart = entry[..<colon]
                portPart = entry[entry.index(after: colon)...]
            }
            if let portPart {
                guard HostName.isDigits(portPart), let port = Int(portPart), (1...65535).contains(port) else {
                    throw fail("has an invalid port '\(portPart)' (1-65535)")
                }
                self.port = port
            } else {
                self.port = nil
            }
            self.pattern = try Self.pattern(String(hostPart), fail: fail)
        }

        private static func pattern(
            _ host: String, fail: (String) -> HostPolicyError
        ) throws(HostPolicyError) -> Pattern {
            if let slash = host.firstIndex(of: "/") {
                let baseText = String(host[..<slash])
                let prefixText = host[host.index(after: slash)...]
                guard let base = IPAddress(baseText), HostName.isDigits(prefixText), var prefix = Int(prefixText) else {
                    throw fail("is not a valid CIDR range (like 10.0.0.0/8 or fc00::/7)")
                }
                if base.isIPv4, baseText.contains(":") { prefix -= 96 }  // ::ffff:10.0.0.0/104
                guard let range = IPAddressRange(base: base, prefixLength: prefix) else {
                    throw fail("is not a valid CIDR range: the prefix length must fit the address, with no address bits set after it")
                }
                return .addresses(range)
            }
            if let address = IPAddress(host) { return .addresses(IPAddressRange(single: address)) }
            if host.contains(":") { throw fail("is not a valid IPv6 address") }
            if host.hasPrefix("*.") {
                let suffix = String(host.dropFirst(2))
                try HostName.validate(suffix, fail: fail)
                guard suffix.contains(".") else { throw fail("is too broad: a wildcard needs at least two labels after '*.'") }
                return .subdomains(of: suffix)
            }
            if host.contains("*") { throw fail("may use '*' only as a whole first label ('*.example.com')") }
            try HostName.validate(host, fail: fail)
            return .host(HostName.normalized(host))
        }

        var description: String { text }
    }
}

/// Host-name rules shared by entries and URLs.
enum HostName {
    /// Without leading and trailing white space.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// One or more ASCII digits, nothing else (`Int("+80")` would accept a sign).
    static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Lowercased, without one trailing dot (`example.com.` is `example.com`).
    static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    /// LDH labels (letters, digits, `-`, and `_`, which some internal names use) of 1-63 characters, at
    /// most 253 in all. A name whose last label is all digits is refused: resolvers read `127.1` or
    /// `2130706433` as IPv4 addresses.
    static func validate(_ host: String, fail: (String) -> HostPolicyError) throws(HostPolicyError) {
        let name = normalized(host)
        guard !name.isEmpty, name.utf8.count <= 253 else { throw fail("is not a valid host name (1-253 characters)") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let valid = (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
                }
            guard valid else { throw fail("is not a valid host name (label '\(label)')") }
        }
        if let last = labels.last, last.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            throw fail("looks like a numeric IPv4 address; write IPv4 addresses as four decimal numbers (192.0.2.1)")
        }
    }
}
