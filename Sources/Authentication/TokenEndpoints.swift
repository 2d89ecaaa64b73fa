package import Credentials
import Foundation

/// The URLs of ArcGIS token calls, derived from the credential's settings and from target URLs.
package enum TokenEndpoints {
    /// `url` as a request URL: the default port left out (`https://host/portal`), so the `Host` header and any
    /// `serverUrl` read as an operator wrote them.
    package static func requestURL(_ url: CredentialURL) -> String {
        let isDefault = (url.scheme == "https" && url.port == 443) || (url.scheme == "http" && url.port == 80)
        return "\(url.scheme)://\(url.host)\(isDefault ? "" : ":\(url.port)")\(url.path)"
    }

    /// A portal's `sharing/rest/oauth2/<endpoint>` (`token`, `authorize`, `revokeToken`).
    package static func oauth(_ portal: CredentialURL, _ endpoint: String) -> String {
        requestURL(portal) + "/sharing/rest/oauth2/" + endpoint
    }

    /// The ArcGIS site a target belongs to: the URL up to and including the segment before `/rest/`
    /// (`https://host/arcgis` for `https://host/arcgis/rest/services/...`; `https://host/portal/sharing` for a
    /// portal's REST API). `nil` when the path has no `/rest/` segment or the URL can't be read.
    package static func siteRoot(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let withoutQuery = url.prefix { $0 != "?" && $0 != "#" }
        let afterScheme = withoutQuery[separator.upperBound...]
        guard let pathStart = afterScheme.firstIndex(of: "/") else { return nil }
        let path = afterScheme[pathStart...]
        guard let rest = path.range(of: "/rest/") ?? (path.hasSuffix("/rest") ? path.range(of: "/rest", options: .backwards) : nil)
        else { return nil }
        let root = String(withoutQuery[..<rest.lowerBound])
        guard (try? CredentialURL(parsing: root)) != nil else { return nil }
        return root
    }

    /// A site's `rest/info?f=json`.
    package static func infoURL(siteRoot: String) -> String { siteRoot + "/rest/info?f=json" }

    /// The portal a `sharing/…/generateToken` URL belongs to (`https://host:443/portal`); `nil` for a token URL
    /// outside a portal (an ArcGIS Server's `tokens/generateToken`).
    package static func portal(ofTokenURL url: String) -> CredentialURL? {
        guard let location = try? CredentialURL(parsing: String(url.prefix { $0 != "?" })),
            let sharing = location.path.range(of: "/sharing/") ?? (location.path.hasSuffix("/sharing") ? location.path.range(of: "/sharing", options: .backwards) : nil)
        else { return nil }
        return try? CredentialURL(parsing: "\(location.scheme)://\(location.host):\(location.port)\(location.path[..<sharing.lowerBound])")
    }

    /// Whether two URLs name the same place once scheme, host, default port and a trailing `/` are normalised.
    package static func same(_ first: String, _ second: String) -> Bool {
        guard let first = try? CredentialURL(parsing: first), let second = try? CredentialURL(parsing: second) else { return false }
        return first == second
    }

    /// ArcGIS Online's hosted services (`services*.arcgis.com`) take the ArcGIS Online portal token as it is; an
    /// exchange (`serverUrl`) is for servers federated with ArcGIS Enterprise (arcgis-rest-js decides the same).
    package static func isArcGISOnline(site: String, portalTokenURL: String) -> Bool {
        guard let site = try? CredentialURL(parsing: site),
            let portal = try? CredentialURL(parsing: String(portalTokenURL.prefix { $0 != "?" }))
        else { return false }
        return site.scheme == "https" && portal.scheme == "https" && site.host.hasSuffix(".arcgis.com")
            && portal.host.hasSuffix(".arcgis.com")
    }

    /// Whether a token URL is under one of the credential's scopes: only then may a password found in a server's
    /// `rest/info` (rather than given by the operator) be sent to it.
    package static func isInScope(_ url: String, of credential: Credential) -> Bool {
        credential.scopes.contains { $0.covers(url) }
    }
}
