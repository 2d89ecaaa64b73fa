import Foundation
/// An http or https URL without query, fragment or user info, read strictly: the form of a credential's scope
/// and of its endpoints (`tokenUrl`, `portalUrl`).
///
/// Scheme and host are lowercased (both are case-insensitive), the default port is made explicit (http 80,
/// https 443) and a trailing `/` is dropped, so two spellings of one prefix compare equal. Anything two URL
/// parsers could read differently is refused rather than guessed: user info, `%`, `\`, white space, `.`/`..`
/// or empty path segments.
package struct CredentialURL: Sendable, Hashable, CustomStringConvertible {
    package let scheme: String
    /// Lowercase; an IPv6 address keeps its brackets (`[::1]`).
    package let host: String
    package let port: Int
    /// `""` for the whole origin, else `/a/b` with no trailing `/`.
    package let path: String

    /// Why a text is not a strict URL; the caller adds the credential and field.
    package struct Failure: Error, Sendable, Hashable {
        package let reason: String
    }

    package init(parsing text: String) throws(Failure) {
        func fail(_ reason: String) -> Failure { Failure(reason: reason) }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) else {
            throw fail("must be ASCII without white space or control characters")
        }
        guard let separator = text.range(of: "://") else { throw fail("must start with http:// or https://") }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw fail("must start with http:// or https://") }
        let rest = text[separator.upperBound...]
        guard !rest.contains("?") else { throw fail("must not have a query (?...)") }
        guard !rest.contains("#") else { throw fail("must not have a fragment (#...)") }
        guard !rest.contains("\\"), !rest.contains("%") else { throw fail("must not contain '\\' or '%'") }
        let authority = rest.prefix { $0 != "/" }
        guard !authority.contains("@") else { throw fail("must not have user info (user@host)") }
        let (host, port) = try Self.hostAndPort(authority, scheme: scheme)
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = try Self.normalizedPath(rest[authority.endIndex...])
    }

    private static func hostAndPort(_ authority: Substring, scheme: String) throws(Failure) -> (String, Int) {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Failure(reason: "has '[' without ']'") }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Failure(reason: "has text after ']' that is not :port") }
                portText = after.dropFirst()
            }
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.contains(":"), inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw Failure(reason: "has an invalid IPv6 address in brackets") }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts.first ?? ""
            if parts.count == 2 { portText = parts[1] }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard !host.isEmpty,
                labels.allSatisfy({ label in
                    !label.isEmpty && label.first != "-" && label.last != "-"
                        && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                })
            else { throw Failure(reason: "must have a host name of letters, digits, '-' and '.'") }
        }
        var port = scheme == "https" ? 443 : 80
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(portText), (1...65535).contains(value)
            else { throw Failure(reason: "has a port that is not 1–65535") }
            port = value
        }
        return (host.lowercased(), port)
    }

    private static func normalizedPath(_ path: Substring) throws(Failure) -> String {
        guard !path.isEmpty, path != "/" else { return "" }
        let trimmed = path.hasSuffix("/") ? path.dropLast() : path
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw Failure(reason: "must not have empty, '.' or '..' path segments")
        }
        return String(trimmed)
    }

    /// The origin with its port always written, then the path: `https://gis.example.com:443/arcgis`.
    package var description: String { "\(scheme)://\(host):\(port)\(path)" }
}
