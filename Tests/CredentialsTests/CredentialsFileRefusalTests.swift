import Credentials
import Testing

/// Each refusal carries its code, the credential and field, and a reason that tells how to fix it.
@Suite("Credentials file refusals")
struct CredentialsFileRefusalTests {
    static func refusal(_ file: String) -> CredentialsConfigurationError? {
        do {
            _ = try CredentialsFile.decode(Array(file.utf8))
            return nil
        } catch {
            return error
        }
    }

    static func refusal(credential: String) -> CredentialsConfigurationError? {
        refusal("{\"credentials\": [\(credential)]}")
    }

    static let token = #""name": "gis", "kind": "token", "scope": "https://gis.example.com", "username": "u", "referer": "r", "expirationMinutes": 60"#

    @Test func inlineSecretIsRefusedWithHowToGiveIt() throws {
        let error = try #require(Self.refusal(credential: "{\(Self.token), \"password\": \"hunter2-MARKER\"}"))
        #expect(error.code == .inlineSecret)
        #expect(error.credential == "gis" && error.field == "password")
        #expect(error.message.contains("{\"file\": \"/path/to/secret\"}") && error.message.contains("{\"env\": \"VARIABLE_NAME\"}"))
        #expect(error.message.hasPrefix("credential 'gis', field 'password': "))
        #expect(!error.isRetryable)
    }

    @Test(arguments: [
        (#"{"file": "/a", "env": "B"}"#, "password"), (#"{"path": "/a"}"#, "password"), (#"{"file": ""}"#, "password.file"),
        (#"{"env": 3}"#, "password.env"), ("42", "password"), (#"["x"]"#, "password"),
    ])
    func malformedSecretReferencesAreRefused(_ reference: String, _ field: String) throws {
        let error = try #require(Self.refusal(credential: "{\(Self.token), \"password\": \(reference)}"))
        #expect(error.code == .invalidValue)
        #expect(error.field == field)
    }

    @Test func unknownKindAndUnknownFields() throws {
        let kind = try #require(Self.refusal(credential: #"{"name": "x", "kind": "kerberos", "scope": "https://a.example.com"}"#))
        #expect(kind.code == .unknownKind && kind.credential == "x" && kind.field == "kind")
        #expect(kind.reason.contains("apiKey, token, pregeneratedToken"))

        let field = try #require(Self.refusal(credential: "{\(Self.token), \"password\": {\"env\": \"P\"}, \"pasword\": 1}"))
        #expect(field.code == .unknownField && field.field == "pasword" && field.credential == "gis")
        #expect(field.reason.contains("expirationMinutes"))

        let otherKind = try #require(
            Self.refusal(credential: #"{"name": "k", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}, "referer": "r"}"#))
        #expect(otherKind.code == .unknownField && otherKind.field == "referer")

        let top = try #require(Self.refusal(#"{"credentials": [], "version": 2}"#))
        #expect(top.code == .invalidFile && top.field == "version")
    }

    @Test(arguments: [
        (#""scope": "https://a.example.com", "key": {"env": "K"}"#, "kind"),
        (#""kind": "apiKey", "key": {"env": "K"}"#, "scope"),
        (#""kind": "apiKey", "scope": "https://a.example.com""#, "key"),
        (#""kind": "token", "scope": "https://a.example.com", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 5"#, "username"),
        (#""kind": "token", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}, "expirationMinutes": 5"#, "referer"),
        (#""kind": "token", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}, "referer": "r""#, "expirationMinutes"),
        (#""kind": "pregeneratedToken", "scope": "https://a.example.com", "referer": "r""#, "token"),
        (#""kind": "oauthApp", "scope": "https://a.example.com", "clientId": "c", "clientSecret": {"env": "S"}, "expirationMinutes": 5"#, "portalUrl"),
        (#""kind": "oauthUser", "scope": "https://a.example.com", "portalUrl": "https://p.example.com", "clientId": "c""#, "refreshTokenFile"),
        (#""kind": "oauth2", "scope": "https://a.example.com", "tokenUrl": "https://p.example.com/t", "clientId": "c""#, "clientSecret"),
        (#""kind": "password", "scope": "https://a.example.com", "username": "u", "password": {"env": "P"}"#, "scheme"),
        (#""kind": "password", "scope": "https://a.example.com", "scheme": "basic", "password": {"env": "P"}"#, "username"),
        (#""kind": "password", "scope": "https://a.example.com", "scheme": "negotiate", "principal": "p@R""#, "keytab"),
        (#""kind": "password", "scope": "https://a.example.com", "scheme": "negotiate", "keytab": "/k""#, "principal"),
        (#""kind": "certificate", "scope": "https://a.example.com", "password": {"env": "P"}"#, "path"),
        (#""kind": "serverTrust", "scope": "https://a.example.com""#, "caFile"),
    ])
    func missingRequiredFields(_ members: String, _ field: String) throws {
        let error = try #require(Self.refusal(credential: "{\"name\": \"c1\", \(members)}"))
        #expect(error.code == .missingField)
        #expect(error.field == field)
        #expect(error.credential == "c1")
    }

    @Test(arguments: [
        (#""kind": "apiKey", "key": {"env": "K"}, "in": "cookie""#, "in"),
        (#""kind": "apiKey", "key": {"env": "K"}, "parameter": "X Key""#, "parameter"),
        (#""kind": "apiKey", "key": {"env": "K"}, "in": "query", "prefix": "Bearer""#, "prefix"),
        (#""kind": "token", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 0"#, "expirationMinutes"),
        (#""kind": "token", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 1.5"#, "expirationMinutes"),
        (#""kind": "token", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 21601"#, "expirationMinutes"),
        (#""kind": "token", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": "60""#, "expirationMinutes"),
        (#""kind": "token", "username": "", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 60"#, "username"),
        (#""kind": "token", "username": "u", "password": {"env": "P"}, "referer": "r", "expirationMinutes": 60, "tokenUrl": "https://p/t?f=json""#, "tokenUrl"),
        (#""kind": "oauthApp", "portalUrl": "ftp://p", "clientId": "c", "clientSecret": {"env": "S"}, "expirationMinutes": 5"#, "portalUrl"),
        (#""kind": "oauthApp", "portalUrl": "https://p", "clientId": "c", "clientSecret": {"env": "S"}, "expirationMinutes": 20161"#, "expirationMinutes"),
        (#""kind": "pregeneratedToken", "token": {"env": "T"}, "referer": "r", "expires": "tomorrow""#, "expires"),
        (#""kind": "password", "scheme": "kerberos", "username": "u", "password": {"env": "P"}"#, "scheme"),
        (#""kind": "password", "scheme": "negotiate", "keytab": "/k", "principal": "p@R", "password": {"env": "P"}"#, "password"),
        (#""kind": "password", "scheme": "basic", "username": "u", "password": {"env": "P"}, "keytab": "/k""#, "keytab"),
        (#""kind": "certificate", "path": "/c/client.pfx", "keyPath": "/c/key.pem""#, "keyPath"),
        (#""kind": "serverTrust", "caFile": "/ca.pem", "pinnedPublicKey": "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=""#, "pinnedPublicKey"),
        (#""kind": "serverTrust", "pinnedPublicKey": "sha1//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=""#, "pinnedPublicKey"),
        (#""kind": "serverTrust", "pinnedPublicKey": "sha256//abc=""#, "pinnedPublicKey"),
    ])
    func invalidValues(_ members: String, _ field: String) throws {
        let error = try #require(Self.refusal(credential: "{\"name\": \"c1\", \"scope\": \"https://a.example.com\", \(members)}"))
        #expect(error.code == .invalidValue)
        #expect(error.field == field)
    }

    @Test func duplicateNames() throws {
        let key = #"{"name": "same", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}}"#
        let other = #"{"name": "other", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}}"#
        let error = try #require(Self.refusal("{\"credentials\": [\(key), \(other), \(key)]}"))
        #expect(error.code == .duplicateName && error.credential == "same" && error.index == 2)
        #expect(error.reason.contains("#1 and #3"))
    }

    @Test(arguments: ["", String(repeating: "a", count: 65), "has space", "slash/name", "ünï", "semi;colon"])
    func badNames(_ name: String) throws {
        let error = try #require(
            Self.refusal(credential: #"{"name": "\#(name)", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}}"#))
        #expect(error.code == .invalidName && error.credential == nil && error.index == 0 && error.field == "name")
        #expect(error.message.hasPrefix("credential #1, field 'name': "))
    }

    @Test func goodNameBounds() throws {
        let name = String(repeating: "a", count: 60) + "_.-9"
        let file = #"{"credentials": [{"name": "\#(name)", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "K"}}]}"#
        #expect(try CredentialsFile.decode(Array(file.utf8)).all.first?.name == name)
    }

    @Test(arguments: [
        (#""https://a.example.com/x?y=1""#, "scope"), (#"[]"#, "scope"), (#"["https://a.example.com", "gopher://b"]"#, "scope[1]"),
        (#"42"#, "scope"), (#""https://u:p@a.example.com""#, "scope"), (#"[3]"#, "scope[0]"),
    ])
    func badScopes(_ scope: String, _ field: String) throws {
        let error = try #require(
            Self.refusal(credential: #"{"name": "s", "kind": "apiKey", "scope": \#(scope), "key": {"env": "K"}}"#))
        #expect(error.code == .invalidScope && error.field == field && error.credential == "s")
    }

    @Test(arguments: ["", "[]", "{}", #"{"credentials": {}}"#, "{\"credentials\": [3]}", "{\"credentials\": [", "null"])
    func badFileShapes(_ file: String) throws {
        let error = try #require(Self.refusal(file))
        #expect(error.code == .invalidFile)
    }

    @Test func oneKerberosIdentityPerProcess() throws {
        func negotiate(_ name: String, _ principal: String) -> String {
            #"{"name": "\#(name)", "kind": "password", "scope": "https://\#(name).example.com", "scheme": "negotiate", "keytab": "/k", "principal": "\#(principal)"}"#
        }
        let same = "{\"credentials\": [\(negotiate("a", "svc@R")), \(negotiate("b", "svc@R"))]}"
        #expect(try CredentialsFile.decode(Array(same.utf8)).all.count == 2)
        let error = try #require(Self.refusal("{\"credentials\": [\(negotiate("a", "svc@R")), \(negotiate("b", "other@R"))]}"))
        #expect(error.code == .conflict && error.credential == "b" && error.reason.contains("'a'"))
    }

    @Test func emptyListIsValid() throws {
        #expect(try CredentialsFile.decode(Array(#"{"credentials": []}"#.utf8)).all.isEmpty)
    }

    @Test func unreadableFile() {
        #expect(throws: CredentialsConfigurationError.self) { try CredentialsFile.load(path: "/nonexistent/credentials.json") }
    }
}
