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
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        var authority = url[separator.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<end]
        }
        // User information is a secret: dropped before anything is read.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Int?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...])
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
        if let end = kept.firstIndex(where: { $0 == "?" || $0 == "#" }) { kept = kept[..<end] }
        guard let separator = kept.range(of: "://") else { return String(kept) }
        let afterScheme = kept[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        guard let at = afterScheme[..<authorityEnd].lastIndex(of: "@") else { return String(kept) }
        return String(kept[..<separator.upperBound]) + afterScheme[afterScheme.index(after: at)...]
    }
}
