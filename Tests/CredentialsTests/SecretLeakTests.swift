import Credentials
import Testing

/// Marker secrets put where an operator might put them by mistake: no error text ever repeats them.
@Suite("Secrets never leak from configuration errors")
struct SecretLeakTests {
    static let marker = "MARKERzq7"

    static func errorText(_ file: String) -> String? {
        do {
            _ = try CredentialsFile.decode(Array(file.utf8))
            return nil
        } catch {
            var dumped = ""
            dump(error, to: &dumped)
            return [error.message, error.reason, error.description, String(describing: error), String(reflecting: error), dumped]
                .joined(separator: "\n")
        }
    }

    static func inList(_ credential: String) -> String { "{\"credentials\": [\(credential)]}" }

    static let m = marker
    static let mistakes: [String] = [
        // Inline secrets, in every kind's secret fields.
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": "\#(m)"}"#,
        #"{"name": "a", "kind": "token", "scope": "https://a.example.com", "username": "u", "password": "\#(m)", "referer": "r", "expirationMinutes": 5}"#,
        #"{"name": "a", "kind": "pregeneratedToken", "scope": "https://a.example.com", "token": "\#(m)", "referer": "r"}"#,
        #"{"name": "a", "kind": "oauthApp", "scope": "https://a.example.com", "portalUrl": "https://p", "clientId": "c", "clientSecret": "\#(m)", "expirationMinutes": 5}"#,
        #"{"name": "a", "kind": "oauth2", "scope": "https://a.example.com", "tokenUrl": "https://p/t", "clientId": "c", "clientSecret": "\#(m)"}"#,
        #"{"name": "a", "kind": "password", "scope": "https://a.example.com", "scheme": "basic", "username": "u", "password": "\#(m)"}"#,
        #"{"name": "a", "kind": "certificate", "scope": "https://a.example.com", "path": "/c.p12", "password": "\#(m)"}"#,
        // Secrets in the wrong place.
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}, "apikey": "\#(m)"}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": {"value": "\#(m)"}}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": {"file": "/k", "env": "\#(m)"}}"#,
        #"{"name": "a \#(m)", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}}"#,
        #"{"name": "a", "kind": "\#(m)", "scope": "https://a.example.com"}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://user:\#(m)@a.example.com", "key": {"env": "K"}}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com/?token=\#(m)", "key": {"env": "K"}}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}, "in": "\#(m)"}"#,
        #"{"name": "a", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}, "parameter": "x \#(m)"}"#,
        #"{"name": "a", "kind": "token", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}, "referer": "\#(m)\u0001", "expirationMinutes": 5}"#,
        #"{"name": "a", "kind": "token", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": "\#(m)"}"#,
        #"{"name": "a", "kind": "token", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 5, "tokenUrl": "https://u:\#(m)@p/t"}"#,
        #"{"name": "a", "kind": "pregeneratedToken", "scope": "https://a.example.com", "token": {"env": "T"}, "referer": "r", "expires": "\#(m)"}"#,
        #"{"name": "a", "kind": "password", "scope": "https://a.example.com", "scheme": "\#(m)", "username": "u", "password": {"env": "P"}}"#,
        #"{"name": "a", "kind": "serverTrust", "scope": "https://a.example.com", "pinnedPublicKey": "sha256//\#(m)"}"#,
    ]

    @Test(arguments: mistakes)
    func configurationErrorsNeverRepeatTheMarker(_ credential: String) throws {
        let text = try #require(Self.errorText(Self.inList(credential)))
        #expect(!text.contains(Self.marker), "\(text)")
    }

    @Test func malformedJSONAroundASecretDoesNotQuoteIt() throws {
        for file in [
            #"{"credentials": [{"name": "a", "password": "\#(Self.m)"#, #"{"credentials": [{"password": "\#(Self.m)" "x"}]}"#,
            #"{"credentials": [{"password": \#(Self.m)}]}"#,
        ] {
            let text = try #require(Self.errorText(file))
            #expect(!text.contains(Self.marker), "\(text)")
        }
    }

    @Test func storesAndCredentialsDescribeReferencesNotValues() throws {
        let file = Self.inList(
            #"{"name": "a", "kind": "oauthApp", "scope": "https://a.example.com", "portalUrl": "https://p", "clientId": "c", "clientSecret": {"env": "SECRET_VAR"}, "expirationMinutes": 5}"#)
        let store = try CredentialsFile.decode(Array(file.utf8))
        let resolver = SecretResolver(environment: ["SECRET_VAR": Self.marker])
        try store.check(with: resolver)
        let secret = try resolver.resolve(.environment(name: "SECRET_VAR"), credential: "a", field: "clientSecret")
        var dumped = ""
        dump(store, to: &dumped)
        dump(secret, to: &dumped)
        for text in [dumped, "\(store)", "\(store.all)", "\(secret)", String(reflecting: secret)] {
            #expect(!text.contains(Self.marker), "\(text)")
        }
        #expect(secret.revealed() == Self.marker)
    }
}
