import Foundation
/// The paths of the security endpoints and the rules for reading them.
///
/// Portal (a server in the ``SampleSecurityRole/portal`` role): `/portal/sharing/rest/generateToken`,
/// `/portal/sharing/rest/oauth2/token`, `/portal/sharing/rest/oauth2/authorize`,
/// `/portal/sharing/rest/oauth2/revokeToken` and `/portal/sharing/rest/info`. A standalone server:
/// `/arcgis/tokens/generateToken`. Every secured server: `/_sample/security` (knobs and counters, test-only).
enum SecurityEndpoint: Sendable, Hashable {
    case portalGenerateToken
    case oauthToken
    case oauthAuthorize
    case oauthRevoke
    case portalInfo
    case serverGenerateToken
    case admin

    /// The endpoint a percent-decoded path names, ignoring letter case and a trailing slash; nil for others.
    init?(path: String) {
        var lowered = path.lowercased()
        if lowered.count > 1, lowered.hasSuffix("/") { lowered.removeLast() }
        switch lowered {
        case SecurityPaths.portalREST.lowercased() + "/generatetoken": self = .portalGenerateToken
        case SecurityPaths.portalREST.lowercased() + "/oauth2/token": self = .oauthToken
        case SecurityPaths.portalREST.lowercased() + "/oauth2/authorize": self = .oauthAuthorize
        case SecurityPaths.portalREST.lowercased() + "/oauth2/revoketoken": self = .oauthRevoke
        case SecurityPaths.portalREST.lowercased() + "/info": self = .portalInfo
        case SecurityPaths.serverTokens.lowercased(): self = .serverGenerateToken
        case SecurityPaths.admin: self = .admin
        default: return nil
        }
    }
}

enum SecurityPaths {
    /// Where the portal lives on its server: the portal URL is `http://host:port/portal`.
    static let portalMount = "/portal"
    /// The portal's REST root.
    static let portalREST = portalMount + "/sharing/rest"
    /// A standalone server's token service.
    static let serverTokens = "/arcgis/tokens/generateToken"
    /// The test-only knobs and counters.
    static let admin = "/_sample/security"

    /// `scheme://host:port` of a URL, scheme and host lowercased; nil when it has none.
    static func origin(of url: String) -> String? {
        guard let marker = url.range(of: "://") else { return nil }
        let rest = url[marker.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { return nil }
        return (url[..<marker.lowerBound] + "://" + authority).lowercased()
    }

    /// The path inside the secured folder with the folder taken out (`/arcgis/rest/services/Secured/X/...`
    /// becomes `/arcgis/rest/services/X/...`), or nil when the path is not in the folder.
    static func insideFolder(_ path: String, folder: String) -> String? {
        let prefix = "/arcgis/rest/services/" + folder.lowercased()
        let lowered = path.lowercased()
        guard lowered.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        return "/arcgis/rest/services" + rest
    }

    /// Percent-encodes a query value (everything but unreserved characters).
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(digits[Int(byte >> 4)])
                output.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return output
    }

    /// Request parameters whose values never reach the request log.
    static let redactedParameters: Set<String> = [
        "token", "password", "client_secret", "code_verifier", "refresh_token", "auth_token", "code", "apikey", "api_key",
    ]
}
