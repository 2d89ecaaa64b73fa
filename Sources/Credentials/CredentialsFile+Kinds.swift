import FeatureQuerySupport

extension CredentialsFile {
    /// Each kind's fields, as the credentials file documents them. Fields without a default are required.
    ///
    /// | kind | fields |
    /// |---|---|
    /// | apiKey | `key`🔒; `in` header (default)/query; `parameter` (`X-Esri-Authorization`, `token` in a query); `prefix` |
    /// | token | `username`, `password`🔒, `referer`, `expirationMinutes` 1–21600; optional `tokenUrl` |
    /// | pregeneratedToken | `token`🔒, `referer`; optional `expires` (Unix ms or RFC 3339) |
    /// | oauthApp | `portalUrl`, `clientId`, `clientSecret`🔒, `expirationMinutes` 1–20160 |
    /// | oauthUser | `portalUrl`, `clientId`, `refreshTokenFile`; optional `redirectUri` (loopback, for `login`) |
    /// | oauth2 | `tokenUrl`, `clientId`, `clientSecret`🔒; optional `oauthScope` |
    /// | password | `scheme` basic/digest/ntlm/negotiate/any; `username`, `password`🔒; negotiate: `keytab`, `principal` instead |
    /// | certificate | `path`; optional `keyPath` (PEM only), `password`🔒 |
    /// | serverTrust | `caFile` or `pinnedPublicKey` (`sha256//BASE64`, `;`-separated) |
    ///
    /// 🔒: a secret, `{"file": PATH}` or `{"env": NAME}`. An apiKey's `prefix` (text and a space before the key)
    /// defaults to `Bearer` only with the default header; `parameter` and `prefix` are not named `name` because
    /// every credential's `name` is its identity (likewise oauth2's `oauthScope`, as `scope` is the URL prefixes).
    static func decodeSettings(
        _ fields: CredentialFields, kind: CredentialKind
    ) throws(CredentialsConfigurationError) -> Credential.Configuration {
        switch kind {
        case .apiKey:
            try fields.rejectUnknown(allowed: ["key", "in", "parameter", "prefix"], kind: kind)
            return .apiKey(try apiKey(fields))
        case .token:
            try fields.rejectUnknown(allowed: ["username", "password", "referer", "expirationMinutes", "tokenUrl"], kind: kind)
            return .token(
                TokenSettings(
                    username: try fields.string("username"), password: try fields.secret("password"),
                    referer: try fields.string("referer"),
                    expirationMinutes: try fields.minutes("expirationMinutes", in: 1...21_600),
                    tokenURL: try fields.optionalURL("tokenUrl")))
        case .pregeneratedToken:
            try fields.rejectUnknown(allowed: ["token", "referer", "expires"], kind: kind)
            return .pregeneratedToken(
                PregeneratedTokenSettings(
                    token: try fields.secret("token"), referer: try fields.string("referer"),
                    expiresMilliseconds: try expires(fields)))
        case .oauthApp:
            try fields.rejectUnknown(allowed: ["portalUrl", "clientId", "clientSecret", "expirationMinutes"], kind: kind)
            return .oauthApp(
                OAuthAppSettings(
                    portalURL: try fields.url("portalUrl"), clientID: try fields.string("clientId"),
                    clientSecret: try fields.secret("clientSecret"),
                    expirationMinutes: try fields.minutes("expirationMinutes", in: 1...20_160)))
        case .oauthUser:
            try fields.rejectUnknown(allowed: ["portalUrl", "clientId", "refreshTokenFile", "redirectUri"], kind: kind)
            return .oauthUser(
                OAuthUserSettings(
                    portalURL: try fields.url("portalUrl"), clientID: try fields.string("clientId"),
                    refreshTokenFile: try fields.string("refreshTokenFile"), redirectURI: try loopbackRedirect(fields)))
        case .oauth2:
            try fields.rejectUnknown(allowed: ["tokenUrl", "clientId", "clientSecret", "oauthScope"], kind: kind)
            return .oauth2(
                OAuth2Settings(
                    tokenURL: try fields.url("tokenUrl"), clientID: try fields.string("clientId"),
                    clientSecret: try fields.secret("clientSecret"), oauthScope: try fields.optionalString("oauthScope")))
        case .password:
            try fields.rejectUnknown(allowed: ["scheme", "username", "password", "keytab", "principal"], kind: kind)
            return .password(try password(fields))
        case .certificate:
            try fields.rejectUnknown(allowed: ["path", "keyPath", "password"], kind: kind)
            return .certificate(try certificate(fields))
        case .serverTrust:
            try fields.rejectUnknown(allowed: ["caFile", "pinnedPublicKey"], kind: kind)
            return .serverTrust(try serverTrust(fields))
        }
    }

    private static func apiKey(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> APIKeySettings {
        let key = try fields.secret("key")
        let placement = try fields.choice("in", as: APIKeySettings.Placement.self, default: .header)
        let given = try fields.optionalString("parameter")
        let parameter = given ?? (placement == .header ? "X-Esri-Authorization" : "token")
        let isToken: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0)) }
        guard parameter.allSatisfy(isToken) else {
            throw fields.error(.invalidValue, "parameter", "must be a header or parameter name (letters, digits, - _ .)")
        }
        var prefix = try fields.optionalString("prefix")
        if prefix == nil, given == nil, placement == .header { prefix = "Bearer" }
        if placement == .query { try fields.refuse("prefix", because: "with in: query") }
        return APIKeySettings(key: key, placement: placement, parameter: parameter, prefix: prefix)
    }

    /// `redirectUri`: `http://127.0.0.1:PORT/path` (or `[::1]`, `localhost`) with an explicit port, as
    /// registered with the portal's application: `login` listens there (RFC 8252 §7.3).
    private static func loopbackRedirect(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> String? {
        guard let text = try fields.optionalString("redirectUri") else { return nil }
        guard LoopbackRedirect(text) != nil else {
            throw fields.error(
                .invalidValue, "redirectUri",
                "must be a loopback http URL with a port, like http://127.0.0.1:7890/callback (as registered with the application)")
        }
        return text
    }

    private static func expires(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> Int64? {
        switch fields.members["expires"] {
        case nil, .null?: return nil
        case .number(let milliseconds)? where milliseconds.rounded() == milliseconds && milliseconds > 0 && milliseconds < 1e15:
            return Int64(milliseconds)
        case .string(let text)?:
            if let milliseconds = RFC3339.milliseconds(from: text) { return milliseconds }
            fallthrough
        default:
            throw fields.error(.invalidValue, "expires", "must be Unix milliseconds or an RFC 3339 date-time")
        }
    }

    private static func password(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> PasswordSettings {
        let scheme = try fields.choice("scheme", as: PasswordSettings.Scheme.self)
        if scheme == .negotiate {
            try fields.refuse("username", because: "with scheme negotiate (it uses keytab and principal)")
            try fields.refuse("password", because: "with scheme negotiate (it uses keytab and principal)")
            return PasswordSettings(
                scheme: scheme, username: nil, password: nil, keytab: try fields.string("keytab"),
                principal: try fields.string("principal"))
        }
        try fields.refuse("keytab", because: "except with scheme negotiate")
        try fields.refuse("principal", because: "except with scheme negotiate")
        return PasswordSettings(
            scheme: scheme, username: try fields.string("username"), password: try fields.secret("password"),
            keytab: nil, principal: nil)
    }

    private static func certificate(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> CertificateSettings {
        let path = try fields.string("path")
        let lowered = path.lowercased()
        if lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx") {
            try fields.refuse("keyPath", because: "with a PKCS#12 file (.p12/.pfx), which holds its key")
        }
        return CertificateSettings(
            path: path, keyPath: try fields.optionalString("keyPath"), password: try fields.optionalSecret("password"))
    }

    private static func serverTrust(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> ServerTrustSettings {
        let caFile = try fields.optionalString("caFile")
        let pinned = try fields.optionalString("pinnedPublicKey")
        switch (caFile, pinned) {
        case (let caFile?, nil): return ServerTrustSettings(anchor: .caFile(caFile))
        case (nil, let pinned?):
            guard isPinnedPublicKey(pinned) else {
                throw fields.error(
                    .invalidValue, "pinnedPublicKey",
                    "must be sha256// then the base64 SHA-256 of the public key (several separated by ';')")
            }
            return ServerTrustSettings(anchor: .pinnedPublicKey(pinned))
        case (nil, nil): throw fields.error(.missingField, "caFile", "or pinnedPublicKey is required")
        case (_?, _?): throw fields.error(.invalidValue, "pinnedPublicKey", "is not allowed with caFile: give one of them")
        }
    }

    /// libcurl's form: `sha256//` and 44 characters of base64 (32 bytes), `;`-separated.
    static func isPinnedPublicKey(_ text: String) -> Bool {
        let base64: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
        return text.split(separator: ";", omittingEmptySubsequences: false).allSatisfy { pin in
            guard pin.hasPrefix("sha256//") else { return false }
            let digest = pin.dropFirst("sha256//".count)
            return digest.count == 44 && digest.hasSuffix("=") && !digest.hasSuffix("==")
                && digest.dropLast().allSatisfy(base64)
        }
    }
}
