/// How a sample server is secured: nil in ``SampleServerConfiguration/security`` keeps today's public
/// server. The authority is shared between servers that trust the same token service (a portal and the
/// servers federated with it), and each server says what part it plays (``SampleSecurityRole``).
///
/// Secured services live in a folder (``securedFolder``, `Secured` by default):
/// `/arcgis/rest/services/Secured/LA_County_Parcels/FeatureServer/0/query` is the public layer behind a token,
/// so one server serves both and a benchmark can compare them. The OGC face has a secured mount,
/// `/ogc-secured`, that wants one of ``ogcAPIKeys``.
package struct SampleSecurity: Sendable {
    /// Users, OAuth clients, issued tokens, knobs and counters.
    package var authority: SampleTokenAuthority
    /// What this server is to the authority.
    package var role: SampleSecurityRole
    /// The folder whose services want a token; the same services outside it stay public.
    package var securedFolder: String
    /// Also require a token for the public paths (the whole `/arcgis/rest/services` tree, not `/rest/info`).
    package var securesEverything: Bool
    /// API keys the `/ogc-secured` mount accepts (in `X-API-Key`, `X-Esri-Authorization: Bearer` or the
    /// `apiKey` query parameter).
    package var ogcAPIKeys: [String]

    package init(
        authority: SampleTokenAuthority,
        role: SampleSecurityRole,
        securedFolder: String = "Secured",
        securesEverything: Bool = false,
        ogcAPIKeys: [String] = [SampleSecurity.defaultOGCAPIKey]
    ) {
        self.authority = authority
        self.role = role
        self.securedFolder = securedFolder
        self.securesEverything = securesEverything
        self.ogcAPIKeys = ogcAPIKeys
    }

    /// The OGC API key of the default configuration (a test value, not a secret).
    package static let defaultOGCAPIKey = "sample-ogc-key"
}

/// What a secured server is to its authority.
package enum SampleSecurityRole: Sendable, Hashable {
    /// Hosts the authority's portal (`/portal/sharing/rest/...`); its own secured services take portal
    /// tokens directly, as ArcGIS Online's hosted services do.
    case portal
    /// Federated with the authority's portal: `owningSystemUrl` names the portal, and the secured services
    /// take server tokens exchanged for this server (`generateToken token=...&serverUrl=...`).
    case federated
    /// A server with its own token service (`/arcgis/tokens/generateToken`) that takes only its own tokens.
    case standalone
}

/// A user who can sign in with a password (generateToken, the OAuth authorize page).
package struct SampleUser: Sendable, Hashable {
    package var username: String
    package var password: String
    /// False: the user's tokens are valid but every secured resource answers 403.
    package var permitted: Bool

    package init(username: String, password: String, permitted: Bool = true) {
        self.username = username
        self.password = password
        self.permitted = permitted
    }
}

/// A registered OAuth application.
package struct SampleOAuthClient: Sendable, Hashable {
    package var clientID: String
    /// For client_credentials; nil for a public client (authorization code with PKCE only).
    package var clientSecret: String?
    /// `redirect_uri` must equal one of these exactly.
    package var redirectURIs: [String]
    /// The username client_credentials tokens are issued to (ArcGIS names the app's owner).
    package var owner: String

    package init(clientID: String, clientSecret: String?, redirectURIs: [String] = [], owner: String = "app_owner") {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURIs = redirectURIs
        self.owner = owner
    }
}

/// How a forced rejection is sent (``SampleTokenAuthority/rejectNext(_:code:shape:)``).
package enum SampleRejectionShape: String, Sendable, Hashable, CaseIterable {
    /// HTTP 200 with `{"error":{"code":498,"message":"Invalid Token","details":[]}}`: ArcGIS's usual way.
    case errorBody = "body"
    /// The same body with the real HTTP status (498, 499 or 403).
    case httpStatus = "status"
    /// HTTP 200 with the admin API's `{"status":"error","messages":["Token Expired."],"code":498}`.
    case admin = "admin"
}

/// The knobs of an authority, changeable on the running servers (``SampleTokenAuthority/knobs``).
package struct SampleSecurityKnobs: Sendable, Hashable {
    /// The longest an access or server token lives, and the lifetime of one asked for without
    /// `expiration`: tokens live `min(expiration minutes, this)`. 2 for quick expiry tests, 60 for demos.
    package var tokenLifetimeSeconds: Int
    /// How long refresh tokens live (ArcGIS: about two weeks).
    package var refreshTokenLifetimeSeconds: Int
    /// How long an authorization code can be redeemed.
    package var authorizationCodeLifetimeSeconds: Int
    /// A token minted with a referer is accepted only with the same `Referer` header.
    package var enforcesReferer: Bool
    /// generateToken refuses requests without `client=referer` and a referer, as ArcGIS Online does.
    package var requiresRefererClient: Bool
    /// Token responses say `"ssl": true` (the token may then only travel over HTTPS; this server is HTTP).
    package var ssl: Bool
    /// Added to the `expires` generateToken reports (not to the real expiry): a server clock that is off.
    package var clockSkewSeconds: Int
    /// `oauth2/authorize` approves at once for ``approvingUser`` and redirects with a code; false shows a
    /// sign-in form that needs `username` and `password` (GET or POST).
    package var autoApprove: Bool
    /// The user an auto-approved authorization signs in.
    package var approvingUser: String
    /// A federated server also takes portal tokens directly (ArcGIS Enterprise can); off by default so that
    /// a client must exchange them.
    package var federatedAcceptsPortalTokens: Bool
    /// Lock a user out of generateToken and the sign-in form after this many wrong passwords in a row
    /// (0: never), as ArcGIS Online does; the right password is then refused too.
    package var lockoutAfterWrongPasswords: Int

    package init(
        tokenLifetimeSeconds: Int = 3600,
        refreshTokenLifetimeSeconds: Int = 14 * 24 * 3600,
        authorizationCodeLifetimeSeconds: Int = 300,
        enforcesReferer: Bool = true,
        requiresRefererClient: Bool = false,
        ssl: Bool = false,
        clockSkewSeconds: Int = 0,
        autoApprove: Bool = true,
        approvingUser: String = "viewer",
        federatedAcceptsPortalTokens: Bool = false,
        lockoutAfterWrongPasswords: Int = 0
    ) {
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
        self.refreshTokenLifetimeSeconds = refreshTokenLifetimeSeconds
        self.authorizationCodeLifetimeSeconds = authorizationCodeLifetimeSeconds
        self.enforcesReferer = enforcesReferer
        self.requiresRefererClient = requiresRefererClient
        self.ssl = ssl
        self.clockSkewSeconds = clockSkewSeconds
        self.autoApprove = autoApprove
        self.approvingUser = approvingUser
        self.federatedAcceptsPortalTokens = federatedAcceptsPortalTokens
        self.lockoutAfterWrongPasswords = lockoutAfterWrongPasswords
    }
}
