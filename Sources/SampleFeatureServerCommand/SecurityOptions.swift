import ArgumentParser
import SampleFeatureServer

/// The `--secure` options: a secured server with the documented test users and clients unless replaced.
struct SecurityOptions: ParsableArguments {
    @Flag(help: "Serve with token security (a portal by default); see the overview above.")
    var secure = false

    @Option(help: "With --secure: portal or standalone.")
    var securityRole = "portal"

    @Option(help: "With --secure and the portal role: also start a server federated with the portal on this port (0 picks one).")
    var federatedPort: Int?

    @Option(help: "With --secure: the longest token lifetime in seconds (60 for a demo, 2 for expiry tests).")
    var tokenLifetimeSeconds = 3600

    @Option(help: "With --secure: refresh-token lifetime in seconds.")
    var refreshTokenLifetimeSeconds = 14 * 24 * 3600

    @Flag(help: "With --secure: token responses say \"ssl\": true.")
    var sslTokens = false

    @Flag(help: "With --secure: generateToken requires client=referer with a referer, as ArcGIS Online does.")
    var requireReferer = false

    @Flag(help: "With --secure: the public paths want a token too (everything but /arcgis/rest/info).")
    var secureEverything = false

    @Flag(help: "With --secure: oauth2/authorize shows a sign-in form instead of approving at once.")
    var noAutoApprove = false

    @Option(name: .customLong("user"), help: "With --secure: NAME:PASSWORD (repeatable; replaces the default users).")
    var users: [String] = []

    @Option(name: .customLong("oauth-client"), help: "With --secure: CLIENT_ID or CLIENT_ID:SECRET (repeatable; replaces the default clients).")
    var clients: [String] = []

    @Option(name: .customLong("redirect-uri"), help: "With --secure: a redirect URI the OAuth clients register (repeatable).")
    var redirectURIs: [String] = []

    @Option(name: .customLong("api-key"), help: "With --secure: an ArcGIS API key the secured services accept (repeatable; replaces sample-api-key).")
    var apiKeys: [String] = []

    @Option(help: "With --secure: lock a user out after this many wrong passwords in a row (0: never).")
    var lockoutAfterWrongPasswords = 0

    @Option(name: .customLong("ogc-api-key"), help: "With --secure: an API key /ogc-secured accepts (repeatable).")
    var ogcAPIKeys: [String] = []

    func validate() throws {
        _ = try security()
    }

    /// The security configuration, nil without --secure.
    func security() throws -> SampleSecurity? {
        guard secure else { return nil }
        let role: SampleSecurityRole
        switch securityRole {
        case "portal": role = .portal
        case "standalone": role = .standalone
        default: throw ValidationError("--security-role must be portal or standalone")
        }
        guard tokenLifetimeSeconds >= 1, refreshTokenLifetimeSeconds >= 1 else {
            throw ValidationError("token lifetimes must be at least 1 second")
        }
        if let federatedPort, role != .portal || !(0...65_535).contains(federatedPort) {
            throw ValidationError("--federated-port needs the portal role and a port 0-65535")
        }
        let knobs = SampleSecurityKnobs(
            tokenLifetimeSeconds: tokenLifetimeSeconds, refreshTokenLifetimeSeconds: refreshTokenLifetimeSeconds,
            requiresRefererClient: requireReferer, ssl: sslTokens, autoApprove: !noAutoApprove,
            lockoutAfterWrongPasswords: max(0, lockoutAfterWrongPasswords))
        let authority = SampleTokenAuthority(
            users: try parsedUsers(), clients: try parsedClients(),
            apiKeys: apiKeys.isEmpty ? [SampleTokenAuthority.defaultAPIKey] : apiKeys, knobs: knobs)
        return SampleSecurity(
            authority: authority, role: role, securesEverything: secureEverything,
            ogcAPIKeys: ogcAPIKeys.isEmpty ? [SampleSecurity.defaultOGCAPIKey] : ogcAPIKeys)
    }

    private func parsedUsers() throws -> [SampleUser] {
        guard !users.isEmpty else { return SampleTokenAuthority.defaultUsers }
        return try users.map { item in
            let parts = item.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--user expects NAME:PASSWORD") }
            return SampleUser(username: String(parts[0]), password: String(parts[1]))
        }
    }

    private func parsedClients() throws -> [SampleOAuthClient] {
        guard !clients.isEmpty else {
            guard !redirectURIs.isEmpty else { return SampleTokenAuthority.defaultClients }
            return SampleTokenAuthority.defaultClients.map { client in
                var client = client
                client.redirectURIs = redirectURIs
                return client
            }
        }
        let redirects = redirectURIs.isEmpty ? SampleTokenAuthority.defaultRedirectURIs : redirectURIs
        return try clients.map { item in
            let parts = item.split(separator: ":", maxSplits: 1)
            guard let id = parts.first, !id.isEmpty else { throw ValidationError("--oauth-client expects CLIENT_ID[:SECRET]") }
            return SampleOAuthClient(clientID: String(id), clientSecret: parts.count == 2 ? String(parts[1]) : nil, redirectURIs: redirects)
        }
    }
}
