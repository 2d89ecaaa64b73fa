import Foundation

/// Reads scheme, host and port from a URL strictly, so that the host checked is the host connected to.
///
/// Parser differences are how allowlists get bypassed (`http://allowed@evil/`, `http://evil\@allowed/`,
/// percent-encoded hosts), so anything that two parsers could read differently is refused: user info,
/// backslashes, `%` in the authority, white space and control characters. The result is then compared
/// with Foundation's `URLComponents`, which the HTTP client uses.
enum URLTarget {
    static func parse(_ url: String) throws(HostPolicyError) -> HostPolicy.Target {
        func invalid(_ why: String) -> HostPolicyError {
            HostPolicyError(code: .invalidURL, message: "the URL '\(printable(url))' \(why)")
        }
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace })
        else { throw invalid("contains white space or control characters") }
        guard let separator = url.range(of: "://") else { throw invalid("is not an absolute http or https URL") }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw invalid("has the scheme '\(printable(scheme))': only http and https are allowed")
        }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { throw invalid("has user info (user@host), which is not accepted") }
        guard !authority.contains("\\"), !authority.contains("%") else {
            throw invalid("has '\\' or '%' in its host part")
        }
        guard !rest.contains("\\") else { throw invalid("contains '\\'") }

        var hostText: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("has '[' without ']'") }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("has text after ']' that is not :port") }
                portText = after.dropFirst()
            }
            guard IPAddress(String(hostText)) != nil, hostText.contains(":") else {
                throw invalid("has an invalid IPv6 address in brackets")
            }
        } else {
            guard !authority.contains("["), !authority.contains("]") else { throw invalid("has a misplaced '[' or ']'") }
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostText = parts.first ?? ""
            if parts.count == 2 { portText = parts[1] }
        }
        let host = HostName.normalized(String(hostText))
        guard !host.isEmpty else { throw invalid("has no host") }
        let port: Int
        if let portText, !portText.isEmpty {
            guard HostName.isDigits(portText), let value = Int(portText), (1...65535).contains(value) else {
                throw invalid("has an invalid port '\(printable(String(portText)))'")
            }
            port = value
        } else {
            port = scheme == "https" ? 443 : 80
        }
        let foundationHost = URLComponents(string: url)?.host.map { HostName.normalized(unbracketed($0)) }
        guard foundationHost == host else { throw invalid("has a host that parsers read differently") }
        let address = IPAddress(host)
        if address == nil, host.contains(":") { throw invalid("has an invalid host") }
        return HostPolicy.Target(scheme: scheme, host: host, port: port, address: address)
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// At most 200 characters, control characters escaped: safe in an error message.
    static func printable(_ text: String) -> String {
        let limited = text.count > 200 ? String(text.prefix(200)) + "…" : text
        return limited.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }
}
