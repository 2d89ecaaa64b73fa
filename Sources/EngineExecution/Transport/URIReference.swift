/// URI references as RFC 3986 reads them: split into components, resolved against a base (§5.2), and the
/// origin (scheme, host, port) compared.
///
/// OGC API services link pages with relative hrefs (`?cursor=abc`, `../items?offset=10`, `//host/path`);
/// every `next` link is resolved against the URL of the response that carried it, the way §5.2.2 says, and
/// its origin checked before it is followed. Foundation-free, so the rules are exactly these.
package struct URIReference: Hashable, Sendable {
    package var scheme: String?
    package var authority: String?
    package var path: String
    package var query: String?
    package var fragment: String?

    /// Splits `text` by RFC 3986 Appendix B's regular expression (every string is a reference).
    package init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isLetter,
            rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            !rest[..<colon].contains("/")
        {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    package init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The reference as text (§5.3).
    package var text: String {
        var output = ""
        if let scheme { output += scheme + ":" }
        if let authority { output += "//" + authority }
        output += path
        if let query { output += "?" + query }
        if let fragment { output += "#" + fragment }
        return output
    }

    /// `reference` resolved against this (absolute) base, per §5.2.2 (strict: a scheme in the reference wins).
    /// The fragment is dropped: it never reaches a server.
    package func resolving(_ reference: URIReference) -> URIReference {
        var target: URIReference
        if let scheme = reference.scheme {
            target = URIReference(
                scheme: scheme, authority: reference.authority, path: Self.removingDotSegments(reference.path),
                query: reference.query, fragment: nil)
        } else if let authority = reference.authority {
            target = URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(reference.path),
                query: reference.query, fragment: nil)
        } else if reference.path.isEmpty {
            target = URIReference(scheme: scheme, authority: authority, path: path, query: reference.query ?? query, fragment: nil)
        } else if reference.path.hasPrefix("/") {
            target = URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(reference.path),
                query: reference.query, fragment: nil)
        } else {
            target = URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(merged(reference.path)),
                query: reference.query, fragment: nil)
        }
        target.fragment = nil
        return target
    }

    /// `href` resolved against `base`, as text.
    package static func resolve(_ href: String, against base: String) -> String {
        URIReference(base).resolving(URIReference(href)).text
    }

    /// §5.2.3: the reference's path appended to the base path's directory.
    private func merged(_ referencePath: String) -> String {
        if authority != nil, path.isEmpty { return "/" + referencePath }
        guard let slash = path.lastIndex(of: "/") else { return referencePath }
        return String(path[...slash]) + referencePath
    }

    /// §5.2.4: `.` and `..` segments removed.
    package static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// The origin (RFC 6454): scheme, lower-cased host and port with the scheme's default filled in, without
    /// user information; nil for a reference without scheme or authority.
    package var origin: String? {
        guard let scheme, var host = authority else { return nil }
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
        host = host.lowercased()
        var port: String
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            port = after.hasPrefix(":") ? String(after.dropFirst()) : ""
            host = String(host[...close])
        } else if let colon = host.lastIndex(of: ":") {
            port = String(host[host.index(after: colon)...])
            host = String(host[..<colon])
        } else {
            port = ""
        }
        if port.isEmpty { port = scheme == "https" ? "443" : scheme == "http" ? "80" : "" }
        return "\(scheme)://\(host):\(port)"
    }

    /// The origin of `url`, or nil.
    package static func origin(of url: String) -> String? { URIReference(url).origin }
}
