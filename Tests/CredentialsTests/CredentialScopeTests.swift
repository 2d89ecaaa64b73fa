import Credentials
import Testing

/// Scopes are read strictly and matched like git's `http.<url>`: origin exact, path at `/` boundaries.
@Suite("Credential scopes")
struct CredentialScopeTests {
    static func scope(_ text: String) throws -> CredentialScope { try CredentialScope(parsing: text) }

    @Test func defaultPortsAreMadeExplicitAndCaseIsFolded() throws {
        let https = try Self.scope("HTTPS://GIS.Example.com/arcgis/")
        #expect(https.prefix.scheme == "https")
        #expect(https.prefix.host == "gis.example.com")
        #expect(https.prefix.port == 443)
        #expect(https.prefix.path == "/arcgis")
        #expect(https.description == "https://gis.example.com:443/arcgis")
        #expect(try Self.scope("http://gis.example.com").prefix.port == 80)
        #expect(try Self.scope("http://gis.example.com/").prefix.path == "")
        #expect(try Self.scope("https://gis.example.com:443/arcgis") == https)
        #expect(try Self.scope("http://[::1]:8080/x").prefix.host == "[::1]")
        #expect(try Self.scope("http://127.0.0.1:8080").prefix.port == 8080)
    }

    @Test(arguments: [
        "ftp://gis.example.com", "gis.example.com/arcgis", "https://", "https://user:pw@gis.example.com",
        "https://gis.example.com/arcgis?f=json", "https://gis.example.com/arcgis#x", "https://gis.example.com:0",
        "https://gis.example.com:65536", "https://gis.example.com:8a", "https://gis.example.com:",
        "https://gis example.com", "https://gis.example.com/a b", "https://gis.example.com/%61rcgis",
        "https://gis.example.com/a//b", "https://gis.example.com/a/../b", "https://gis.example.com/./a",
        "https://gis..example.com", "https://-gis.example.com", "https://gis.example.com\\@evil.net",
        "https://[::1", "https://[zz::1]", "https://gis.exämple.com",
    ])
    func malformedScopesAreRefused(_ text: String) {
        #expect(throws: CredentialURL.Failure.self) { try CredentialScope(parsing: text) }
    }

    @Test func pathMatchesAtSlashBoundaries() throws {
        let scope = try Self.scope("https://gis.example.com/arcgis")
        #expect(scope.covers("https://gis.example.com/arcgis"))
        #expect(scope.covers("https://gis.example.com/arcgis/"))
        #expect(scope.covers("https://gis.example.com/arcgis/rest/services/Parcels/FeatureServer/0/query?where=1%3D1"))
        #expect(scope.covers("https://gis.example.com/arcgis?f=json"))
        #expect(scope.covers("https://GIS.EXAMPLE.COM:443/arcgis/rest"))
        #expect(!scope.covers("https://gis.example.com/arcgis2"))
        #expect(!scope.covers("https://gis.example.com/arcgis2/rest"))
        #expect(!scope.covers("https://gis.example.com/"))
        #expect(!scope.covers("https://gis.example.com"))
        #expect(!scope.covers("https://gis.example.com/ArcGIS/rest"))
        #expect(!scope.covers("https://gis.example.com/arcgis/../portal/sharing"))
        #expect(scope.covers("https://gis.example.com/other/../arcgis/rest"))
    }

    @Test func originMustMatchExactly() throws {
        let scope = try Self.scope("https://gis.example.com")
        #expect(scope.covers("https://gis.example.com/anything"))
        #expect(!scope.covers("http://gis.example.com/anything"))
        #expect(!scope.covers("https://gis.example.com:8443/anything"))
        #expect(!scope.covers("https://gis.example.com.evil.net/anything"))
        #expect(!scope.covers("https://evil.net/https://gis.example.com/"))
        #expect(!scope.covers("https://sub.gis.example.com/"))
        #expect(!scope.covers("https://gis.example.com@evil.net/"))
        #expect(!scope.covers("https://user@gis.example.com/"))
        #expect(!scope.covers("not a url"))
        let port = try Self.scope("http://localhost:8080/ogc")
        #expect(port.covers("http://localhost:8080/ogc/collections"))
        #expect(!port.covers("http://localhost/ogc/collections"))
        #expect(!port.covers("http://localhost:8081/ogc/collections"))
        #expect(try Self.scope("http://gis.example.com:80").covers("http://gis.example.com/x"))
    }

    static let layered = """
        {"credentials": [
          {"name": "site", "kind": "pregeneratedToken", "scope": "https://gis.example.com", "token": {"env": "A"},
           "referer": "https://worker"},
          {"name": "arcgis", "kind": "pregeneratedToken", "scope": ["https://other.example.com", "https://gis.example.com/arcgis"],
           "token": {"env": "B"}, "referer": "https://worker"},
          {"name": "parcels", "kind": "apiKey", "scope": "https://gis.example.com/arcgis/rest/services/Parcels", "key": {"env": "C"}},
          {"name": "mtls", "kind": "certificate", "scope": "https://gis.example.com", "path": "/etc/worker/client.p12"},
          {"name": "ca", "kind": "serverTrust", "scope": "https://gis.example.com:443", "caFile": "/etc/worker/ca.pem"},
          {"name": "basic", "kind": "password", "scope": "https://gis.example.com/arcgis", "scheme": "basic",
           "username": "u", "password": {"env": "D"}},
          {"name": "elsewhere", "kind": "apiKey", "scope": "https://gis.example.com/arcgis2", "key": {"env": "E"}}
        ]}
        """

    @Test func longestPrefixWinsAndSeveralKindsApplyTogether() throws {
        let store = try CredentialsFile.decode(Array(Self.layered.utf8))
        let parcels = "https://gis.example.com/arcgis/rest/services/Parcels/FeatureServer/0/query"
        #expect(store.credentials(for: parcels).map(\.name) == ["parcels", "arcgis", "basic", "site", "mtls", "ca"])
        let selected = store.selection(for: parcels)
        #expect(selected[.token]?.name == "parcels")
        #expect(selected[.clientCertificate]?.name == "mtls")
        #expect(selected[.serverTrust]?.name == "ca")
        #expect(selected[.httpAuthentication]?.name == "basic")

        let roads = "https://gis.example.com/arcgis/rest/services/Roads/FeatureServer/0"
        #expect(store.selection(for: roads)[.token]?.name == "arcgis")
        #expect(store.selection(for: "https://gis.example.com/portal/sharing")[.token]?.name == "site")
        #expect(store.credentials(for: "https://gis.example.com/arcgis2/rest").map(\.name) == ["elsewhere", "site", "mtls", "ca"])
        #expect(store.credentials(for: "https://other.example.com/x").map(\.name) == ["arcgis"])
        #expect(store.credentials(for: "http://gis.example.com/arcgis").isEmpty)
        #expect(store.credential(named: "basic")?.kind == .password)
        #expect(store.credential(named: "nobody") == nil)
    }
}
