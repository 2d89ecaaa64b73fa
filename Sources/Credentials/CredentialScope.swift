import Foundation
/// A URL prefix a credential applies to, matched the way git matches `http.<url>` settings: scheme, host and
/// port exactly, the path at `/` boundaries.
///
/// `https://gis.example.com/arcgis` covers `https://gis.example.com:443/arcgis` and `…/arcgis/rest/services`,
/// not `…/arcgis2`, not `http://gis.example.com/arcgis`, and never `https://gis.example.com.evil.net` (a raw
/// string prefix would). A scope without a path covers the whole origin.
package struct CredentialScope: Sendable, Hashable, CustomStringConvertible {
    package let prefix: CredentialURL

    package init(_ prefix: CredentialURL) { self.prefix = prefix }

    package init(parsing text: String) throws(CredentialURL.Failure) {
        self.prefix = try CredentialURL(parsing: text)
    }

    /// Whether the target URL is under this prefix. A target that can't be read strictly enough to be sure of
    /// its origin (user info, a bad port) is covered by nothing, so no credential goes to it.
    package func covers(_ target: String) -> Bool {
        guard let location = TargetLocation(target) else { return false }
        return covers(location)
    }

    func covers(_ target: TargetLocation) -> Bool {
        guard target.scheme == prefix.scheme, target.host == prefix.host, target.port == prefix.port else { return false }
        if prefix.path.isEmpty || target.path == prefix.path { return true }
        return target.path.hasPrefix(prefix.path + "/")
    }

    /// How specific the scope is: the length of its path. Among scopes that cover one target, a longer path is
    /// a more specific operator decision and wins.
    package var specificity: Int { prefix.path.utf8.count }

    package var description: String { prefix.description }
}

/// A request's target URL read for matching: scheme, host, port and a path without query, fragment or dot
/// segments (`/arcgis/../other` is `/other`, as the server will read it).
struct TargetLocation: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int
    let path: String

    init?(_ url: String) {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@"), !authority.contains("\\"), !authority.contains("%") else { return nil }
        guard let origin = try? CredentialURL(parsing: "\(scheme)://\(authority)") else { return nil }
        let afterAuthority = rest[authority.endIndex...]
        let rawPath = afterAuthority.prefix { $0 != "?" && $0 != "#" }
        self.scheme = scheme
        self.host = origin.host
        self.port = origin.port
        self.path = Self.removingDotSegments(rawPath)
    }

    /// RFC 3986 §5.2.4 on a path already split at `/`.
    private static func removingDotSegments(_ path: Substring) -> String {
        var kept: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            switch segment {
            case ".": if isLast { kept.append("") }
            case "..":
                _ = kept.popLast()
                if isLast { kept.append("") }
            default: kept.append(segment)
            }
        }
        return kept.isEmpty ? "/" : "/" + kept.joined(separator: "/")
    }
}
