import Credentials
import Foundation
import Testing

/// Secrets come from files (read afresh each time) or the injected environment, and never show in text.
@Suite("Secrets")
struct SecretTests {
    /// A temporary folder removed when the test ends.
    final class Folder {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "credentials-tests-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func write(_ name: String, _ text: String) throws -> String {
            let file = path + "/" + name
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return file
        }
    }

    @Test func secretNeverPrintsItsValue() {
        let secret = Secret("MARKER-s3cr3t")
        #expect("\(secret)" == "<redacted>")
        #expect(String(describing: secret) == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("MARKER"))
        #expect(!"\([secret])".contains("MARKER"))
        #expect(!"\(Optional(secret) as Any)".contains("MARKER"))
        #expect(secret.revealed() == "MARKER-s3cr3t")
    }

    @Test func fileSecretsLoseOneTrailingNewline() throws {
        let folder = try Folder()
        let resolver = SecretResolver(environment: [:])
        for (text, expected) in [("pw\n", "pw"), ("pw\r\n", "pw"), ("pw\n\n", "pw\n"), ("pw", "pw"), (" pw \n", " pw ")] {
            let path = try folder.write("secret", text)
            #expect(try resolver.resolve(.file(path: path), credential: "c", field: "password").revealed() == expected)
        }
    }

    @Test func environmentSecretsComeFromTheInjectedDictionary() throws {
        let resolver = SecretResolver(environment: ["GIS_PASSWORD": "from-env"])
        #expect(try resolver.resolve(.environment(name: "GIS_PASSWORD"), credential: "c", field: "password").revealed() == "from-env")
        let missing = #expect(throws: CredentialsConfigurationError.self) {
            try resolver.resolve(.environment(name: "PATH"), credential: "gis", field: "password")
        }
        #expect(missing?.code == .secretUnavailable && missing?.isRetryable == true)
        #expect(missing?.message == "credential 'gis', field 'password': the environment variable PATH is not set")
    }

    @Test func emptyAndMissingSecrets() throws {
        let folder = try Folder()
        let resolver = SecretResolver(environment: ["EMPTY": "\n"], maxFileBytes: 16)
        let empty = #expect(throws: CredentialsConfigurationError.self) {
            try resolver.resolve(.environment(name: "EMPTY"), credential: "c", field: "key")
        }
        #expect(empty?.code == .emptySecret)
        let missing = #expect(throws: CredentialsConfigurationError.self) {
            try resolver.resolve(.file(path: folder.path + "/absent"), credential: "c", field: "key")
        }
        #expect(missing?.code == .secretUnavailable)
        let large = try folder.write("large", String(repeating: "x", count: 17))
        let tooLarge = #expect(throws: CredentialsConfigurationError.self) {
            try resolver.resolve(.file(path: large), credential: "c", field: "key")
        }
        #expect(tooLarge?.code == .invalidValue)
        #expect(tooLarge?.message.contains("xxxx") == false)
    }

    /// Kubernetes updates a secret volume by writing a new timestamped folder and swapping the `..data` symlink;
    /// the file the credential names (`password`) is a symlink to `..data/password`.
    @Test func kubernetesSymlinkSwapIsReadAfresh() throws {
        let folder = try Folder()
        let manager = FileManager.default
        _ = try folder.write("..2026_11_26_01_00_00.1/password", "first\n")
        _ = try folder.write("..2026_11_26_01_05_00.2/password", "second\n")
        try manager.createSymbolicLink(atPath: folder.path + "/..data", withDestinationPath: "..2026_11_26_01_00_00.1")
        try manager.createSymbolicLink(atPath: folder.path + "/password", withDestinationPath: "..data/password")
        let reference = SecretReference.file(path: folder.path + "/password")
        let resolver = SecretResolver(environment: [:])
        #expect(try resolver.resolve(reference, credential: "c", field: "password").revealed() == "first")

        // The atomic swap: a new link renamed over `..data`.
        try manager.createSymbolicLink(atPath: folder.path + "/..data_tmp", withDestinationPath: "..2026_11_26_01_05_00.2")
        #expect(rename(folder.path + "/..data_tmp", folder.path + "/..data") == 0)
        try manager.removeItem(atPath: folder.path + "/..2026_11_26_01_00_00.1")
        #expect(try resolver.resolve(reference, credential: "c", field: "password").revealed() == "second")
    }

    @Test func checkNamesTheCredentialAndField() throws {
        let folder = try Folder()
        let present = try folder.write("present", "pw")
        let certificate = try folder.write("client.p12", "not really PKCS#12")
        let file = """
            {"credentials": [
              {"name": "ok", "kind": "oauthApp", "scope": "https://a.example.com", "portalUrl": "https://p.example.com",
               "clientId": "c", "clientSecret": {"file": "\(present)"}, "expirationMinutes": 5},
              {"name": "cert", "kind": "certificate", "scope": "https://a.example.com", "path": "\(certificate)"},
              {"name": "broken", "kind": "apiKey", "scope": "https://a.example.com", "key": {"env": "MISSING_KEY"}},
              {"name": "ca", "kind": "serverTrust", "scope": "https://a.example.com", "caFile": "\(folder.path)/ca.pem"}
            ]}
            """
        let path = try folder.write("credentials.json", file)
        let store = try CredentialsFile.load(path: path)
        #expect(store.all.map(\.name) == ["ok", "cert", "broken", "ca"])
        let error = #expect(throws: CredentialsConfigurationError.self) {
            try store.check(with: SecretResolver(environment: [:]))
        }
        #expect(error?.credential == "broken" && error?.field == "key" && error?.code == .secretUnavailable)
        let resolver = SecretResolver(environment: ["MISSING_KEY": "k"])
        let unreadable = #expect(throws: CredentialsConfigurationError.self) { try store.check(with: resolver) }
        #expect(unreadable?.credential == "ca" && unreadable?.field == "caFile" && unreadable?.code == .fileUnreadable)
        _ = try folder.write("ca.pem", "-----BEGIN CERTIFICATE-----")
        try store.check(with: resolver)
    }
}
