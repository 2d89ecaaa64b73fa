/// The parts of a URL a span may carry: scheme, host and port. Never the path's query, user information or
/// fragment, where tokens and API keys travel (`?token=…`, `https://user:password@host`), so `url.full` is
/// never set on a span.
///
/// A small reader rather than Foundation's `URL`: it runs for every HTTP page while a tracer records, and it
/// needs only the authority.
package struct TracedURL: Sendable, Hashable {
    /// `http` or `https` (lowercased), as `url.scheme`.
    package var scheme: String
    /// The host without brackets (an IPv6 literal's brackets removed), as `server.address`.
    package var host: String
    /// The explicit port, else the scheme's default (80, 443), as `server.port`; `nil` for other schemes.
    package var port: Int?

    /// Reads `url`'s scheme and authority; `nil` when it has no `scheme://`.
    package init?(_ url: String) {
        let text = Substring(url)
        guard let separator = Self.schemeSeparator(text) else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        var authority = text[separator.upperBound...]
        if let end = authority.utf8.firstIndex(where: Self.endsAuthority) { authority = authority[..<end] }
        // User information is a secret: dropped before anything is read.
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.utf8.index(after: at)...] }
        var host = authority
        var port: Int?
        if authority.utf8.first == UInt8(ascii: "["), let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) {
            host = authority[authority.utf8.index(after: authority.startIndex)..<close]
            let rest = authority[authority.utf8.index(after: close)...]
            if rest.utf8.first == UInt8(ascii: ":") { port = Int(rest.dropFirst()) }
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = Int(authority[authority.utf8.index(after: colon)...])
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port ?? Self.defaultPort(scheme)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }

    /// `scheme://host[:port]/path` without query or fragment (user information dropped): what a span may say
    /// about a layer or collection (`query_worker.layer.url`).
    package static func withoutQuery(_ url: String) -> String {
        var kept = Substring(url)
        if let end = kept.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { kept = kept[..<end] }
        guard let separator = schemeSeparator(kept) else { return String(kept) }
        let afterScheme = kept[separator.upperBound...]
        let authorityEnd = afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex
        guard let at = afterScheme[..<authorityEnd].utf8.lastIndex(of: UInt8(ascii: "@")) else { return String(kept) }
        return String(kept[..<separator.upperBound]) + afterScheme[afterScheme.utf8.index(after: at)...]
    }

    // Byte scans rather than Foundation's `range(of:)` and Character iteration: these run for every recorded
    // layer and HTTP span, and only ASCII delimiters matter.

    /// The first `://` in `text`.
    private static func schemeSeparator(_ text: Substring) -> Range<String.Index>? {
        let bytes = text.utf8
        var from = bytes.startIndex
        while let colon = bytes[from...].firstIndex(of: UInt8(ascii: ":")) {
            let afterColon = bytes.index(after: colon)
            if bytes[afterColon...].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
                return colon..<bytes.index(afterColon, offsetBy: 2)
            }
            from = afterColon
        }
        return nil
    }

    /// Whether `byte` ends a URL's authority (the path, query or fragment begins).
    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
