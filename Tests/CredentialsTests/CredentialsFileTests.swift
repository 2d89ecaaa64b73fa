import Credentials
import Testing

/// Every kind's fields as the credentials file documents them, and every way a file is refused.
@Suite("Credentials file")
struct CredentialsFileTests {
    static func decode(_ credentials: String...) throws(CredentialsConfigurationError) -> CredentialStore {
        try CredentialsFile.decode(Array("{\"credentials\": [\(credentials.joined(separator: ","))]}".utf8))
    }

    static func only(_ credential: String) throws -> Credential.Configuration {
        let store = try decode(credential)
        #expect(store.all.count == 1)
        return try #require(store.all.first).configuration
    }

    @Test func apiKeyDefaultsToTheEsriHeaderWithBearer() throws {
        let configuration = try Self.only(
            #"{"name": "key", "kind": "apiKey", "scope": "https://ogc.example.com", "key": {"env": "OGC_KEY"}}"#)
        guard case .apiKey(let settings) = configuration else { Issue.record("not an apiKey"); return }
        #expect(settings.key == .environment(name: "OGC_KEY"))
        #expect(settings.placement == .header)
        #expect(settings.parameter == "X-Esri-Authorization")
        #expect(settings.prefix == "Bearer")

        let custom = try Self.only(
            #"{"name": "k", "kind": "apiKey", "scope": "https://ogc.example.com", "key": {"file": "/s/k"}, "parameter": "X-API-Key"}"#)
        guard case .apiKey(let header) = custom else { Issue.record("not an apiKey"); return }
        #expect(header.parameter == "X-API-Key" && header.prefix == nil && header.key == .file(path: "/s/k"))

        let query = try Self.only(
            #"{"name": "k", "kind": "apiKey", "scope": "https://ogc.example.com", "key": {"env": "K"}, "in": "query"}"#)
        guard case .apiKey(let parameter) = query else { Issue.record("not an apiKey"); return }
        #expect(parameter.placement == .query && parameter.parameter == "token" && parameter.prefix == nil)
    }

    @Test func token() throws {
        let configuration = try Self.only(
            #"""
            {"name": "gis", "kind": "token", "scope": "https://gis.example.com/arcgis", "username": "svc",
             "password": {"file": "/run/secrets/gis/password"}, "referer": "https://worker.example.com",
             "expirationMinutes": 60, "tokenUrl": "https://gis.example.com/portal/sharing/rest/generateToken"}
            """#)
        guard case .token(let settings) = configuration else { Issue.record("not a token"); return }
        #expect(settings.username == "svc")
        #expect(settings.password == .file(path: "/run/secrets/gis/password"))
        #expect(settings.referer == "https://worker.example.com")
        #expect(settings.expirationMinutes == 60)
        #expect(settings.tokenURL?.description == "https://gis.example.com:443/portal/sharing/rest/generateToken")
        let found = try Self.only(
            #"""
            {"name": "gis", "kind": "token", "scope": "https://gis.example.com", "username": "svc",
             "password": {"env": "P"}, "referer": "r", "expirationMinutes": 21600}
            """#)
        guard case .token(let discovered) = found else { Issue.record("not a token"); return }
        #expect(discovered.tokenURL == nil && discovered.expirationMinutes == 21_600)
    }

    @Test func pregeneratedToken() throws {
        let configuration = try Self.only(
            #"""
            {"name": "pre", "kind": "pregeneratedToken", "scope": "https://gis.example.com", "token": {"env": "T"},
             "referer": "https://worker", "expires": "2026-12-01T00:00:00Z"}
            """#)
        guard case .pregeneratedToken(let settings) = configuration else { Issue.record("not pregenerated"); return }
        #expect(settings.expiresMilliseconds == 1_796_083_200_000)
        #expect(settings.token == .environment(name: "T") && settings.referer == "https://worker")
        let milliseconds = try Self.only(
            #"""
            {"name": "pre", "kind": "pregeneratedToken", "scope": "https://gis.example.com", "token": {"env": "T"},
             "referer": "https://worker", "expires": 1796083200000}
            """#)
        guard case .pregeneratedToken(let numeric) = milliseconds else { Issue.record("not pregenerated"); return }
        #expect(numeric.expiresMilliseconds == 1_796_083_200_000)
    }

    @Test func oauthKinds() throws {
        let app = try Self.only(
            #"""
            {"name": "app", "kind": "oauthApp", "scope": "https://services.arcgis.com", "portalUrl": "https://www.arcgis.com",
             "clientId": "abc", "clientSecret": {"file": "/s/secret"}, "expirationMinutes": 120}
            """#)
        guard case .oauthApp(let appSettings) = app else { Issue.record("not oauthApp"); return }
        #expect(appSettings.portalURL.description == "https://www.arcgis.com:443")
        #expect(appSettings.clientID == "abc" && appSettings.expirationMinutes == 120)

        let user = try Self.only(
            #"""
            {"name": "user", "kind": "oauthUser", "scope": "https://portal.example.com/portal",
             "portalUrl": "https://portal.example.com/portal", "clientId": "xyz", "refreshTokenFile": "/var/lib/worker/user.refresh"}
            """#)
        guard case .oauthUser(let userSettings) = user else { Issue.record("not oauthUser"); return }
        #expect(userSettings.refreshTokenFile == "/var/lib/worker/user.refresh")
        #expect(userSettings.portalURL.path == "/portal")

        let generic = try Self.only(
            #"""
            {"name": "iap", "kind": "oauth2", "scope": "https://ogc.example.com", "tokenUrl": "https://idp.example.com/oauth2/token",
             "clientId": "c", "clientSecret": {"env": "IAP_SECRET"}, "oauthScope": "features.read"}
            """#)
        guard case .oauth2(let genericSettings) = generic else { Issue.record("not oauth2"); return }
        #expect(genericSettings.oauthScope == "features.read")
        #expect(genericSettings.clientSecret == .environment(name: "IAP_SECRET"))
    }

    @Test(arguments: PasswordSettings.Scheme.allCases.filter { $0 != .negotiate })
    func passwordSchemes(_ scheme: PasswordSettings.Scheme) throws {
        let configuration = try Self.only(
            #"{"name": "web", "kind": "password", "scope": "https://gis.example.com", "scheme": "\#(scheme.rawValue)", "username": "u", "password": {"env": "PW"}}"#)
        guard case .password(let settings) = configuration else { Issue.record("not password"); return }
        #expect(settings.scheme == scheme && settings.username == "u" && settings.password == .environment(name: "PW"))
        #expect(settings.keytab == nil && settings.principal == nil)
    }

    @Test func negotiateUsesAKeytab() throws {
        let configuration = try Self.only(
            #"""
            {"name": "krb", "kind": "password", "scope": "https://gis.example.com", "scheme": "negotiate",
             "keytab": "/etc/worker/svc.keytab", "principal": "svc@EXAMPLE.COM"}
            """#)
        guard case .password(let settings) = configuration else { Issue.record("not password"); return }
        #expect(settings.keytab == "/etc/worker/svc.keytab" && settings.principal == "svc@EXAMPLE.COM")
        #expect(settings.username == nil && settings.password == nil)
    }

    @Test func certificateAndServerTrust() throws {
        let p12 = try Self.only(
            #"{"name": "c", "kind": "certificate", "scope": "https://gis.example.com", "path": "/c/client.p12", "password": {"file": "/c/pw"}}"#)
        guard case .certificate(let pkcs12) = p12 else { Issue.record("not certificate"); return }
        #expect(pkcs12.path == "/c/client.p12" && pkcs12.keyPath == nil && pkcs12.password == .file(path: "/c/pw"))
        let pem = try Self.only(
            #"{"name": "c", "kind": "certificate", "scope": "https://gis.example.com", "path": "/c/client.pem", "keyPath": "/c/client.key"}"#)
        guard case .certificate(let pemSettings) = pem else { Issue.record("not certificate"); return }
        #expect(pemSettings.keyPath == "/c/client.key" && pemSettings.password == nil)

        let ca = try Self.only(#"{"name": "t", "kind": "serverTrust", "scope": "https://gis.example.com", "caFile": "/c/ca.pem"}"#)
        #expect(ca == .serverTrust(ServerTrustSettings(anchor: .caFile("/c/ca.pem"))))
        let pin = "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=;sha256//t62CeU2tQiqkexU74Gxa2eg7fRbEgoChTociMee9wno="
        let pinned = try Self.only(#"{"name": "t", "kind": "serverTrust", "scope": "https://gis.example.com", "pinnedPublicKey": "\#(pin)"}"#)
        #expect(pinned == .serverTrust(ServerTrustSettings(anchor: .pinnedPublicKey(pin))))
    }

    @Test func everyKindHasAValidExample() throws {
        let store = try CredentialsFile.decode(Array(CredentialScopeTests.layered.utf8))
        #expect(Set(store.all.map(\.kind)) == [.pregeneratedToken, .apiKey, .certificate, .serverTrust, .password])
        #expect(store.all.map(\.name) == ["site", "arcgis", "parcels", "mtls", "ca", "basic", "elsewhere"])
        #expect(store.all[1].scopes.count == 2)
    }

    @Test func credentialDescriptionShowsNameKindAndScopes() throws {
        let store = try Self.decode(#"{"name": "k", "kind": "apiKey", "scope": "https://a.example.com/x/", "key": {"env": "K"}}"#)
        #expect(store.all.first?.description == "k (apiKey) for https://a.example.com:443/x")
    }
}
