import ChildProcessFixture
import Credentials
import Foundation
import Logging
import Testing
import WorkerTestSupport

@testable import QueryWorker

/// The credentials file at start: read, checked without a network call, echoed by name, kind and scope only;
/// a bad one stops the start with a message naming the credential and field, never a secret.
@Suite("Credentials: start-up checks and echo")
struct CredentialsStartupTests {
    /// Marker values that must never appear in an echo or an error.
    static let passwordMarker = "pw-MARKER-5f1c"
    static let keyMarker = "key-MARKER-93ab"

    @Test("a valid file loads, and the echo shows names, kinds and scopes and nothing secret")
    func validFileAndEcho() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let passwordFile = try folder.write("secrets/password", Self.passwordMarker + "\n")
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.token("county-gis", scope: "https://gis.example.org/arcgis", passwordFile: passwordFile),
            SampleCredentials.apiKey("ogc-key", scope: "https://ogc.example.org/api", variable: "OGC_KEY")))
        let credentials = try WorkerCredentials.load(path: path, environment: ["OGC_KEY": Self.keyMarker])
        #expect(credentials.store.all.map(\.name) == ["county-gis", "ogc-key"])
        #expect(credentials.kerberos == nil)

        let echo = "\(credentials.logMetadata)"
        #expect(echo.contains("county-gis") && echo.contains("token") && echo.contains("https://gis.example.org:443/arcgis"))
        #expect(echo.contains("ogc-key") && echo.contains("apiKey"))
        for hidden in [Self.passwordMarker, Self.keyMarker, passwordFile, "OGC_KEY", "svc"] {
            #expect(!echo.contains(hidden), "the echo shows \(hidden)")
        }
        let entry = try #require({ () -> Logger.Metadata? in
            guard case .array(let entries)? = credentials.logMetadata["credentials"], case .dictionary(let first)? = entries.first
            else { return nil }
            return first
        }())
        #expect(Set(entry.keys) == ["name", "kind", "scopes"])
    }

    @Test("without a credentials file there are none, and the echo says so")
    func noFile() throws {
        let credentials = try WorkerCredentials.load(settings: WorkerSettings(), environment: [:])
        #expect(credentials.path == nil && credentials.store.all.isEmpty)
        #expect(credentials.logMetadata["credentialsFile"] == "none")
    }

    @Test("a file that is not JSON stops the start")
    func notJSON() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", #"{"credentials": [ {"name": "a", "#)
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: [:])
        }
        #expect(error.code == .invalidFile)
        #expect(WorkerCredentials.startupRefusal(error, path: path).hasPrefix("credentialsFile \(path): the credentials file is not valid JSON"))
    }

    @Test("an inline secret is refused with how to give it, and is not repeated")
    func inlineSecret() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            #"{"name": "county-gis", "kind": "token", "scope": "https://gis.example.org/arcgis", "username": "svc", "#
                + #""password": "\#(Self.passwordMarker)", "referer": "https://w.example", "expirationMinutes": 60}"#))
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: [:])
        }
        #expect(error.code == .inlineSecret && error.credential == "county-gis" && error.field == "password")
        let message = WorkerCredentials.startupRefusal(error, path: path)
        #expect(message.contains(#"credential 'county-gis', field 'password'"#))
        #expect(message.contains(#"{"file": "/path/to/secret"} or {"env": "VARIABLE_NAME"}"#))
        #expect(!message.contains(Self.passwordMarker) && !"\(error)".contains(Self.passwordMarker))
    }

    @Test("a secret file that is not there, or a variable that is not set, stops the start naming the credential and field")
    func missingSecret() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.token("county-gis", scope: "https://gis.example.org/arcgis", passwordFile: folder.path("absent"))))
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: [:])
        }
        #expect(error.code == .secretUnavailable && error.credential == "county-gis" && error.field == "password")
        #expect(error.message.contains("can't be read"))

        try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.apiKey("ogc-key", scope: "https://ogc.example.org/api", variable: "OGC_KEY")))
        let unset = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: ["OTHER": Self.keyMarker])
        }
        #expect(unset.credential == "ogc-key" && unset.field == "key" && unset.message.contains("OGC_KEY is not set"))
        #expect(try WorkerCredentials.load(path: path, environment: ["OGC_KEY": Self.keyMarker]).store.all.count == 1)
    }

    @Test("two negotiate credentials are refused: libcurl has one Kerberos identity per process")
    func twoNegotiateCredentials() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let keytab = try folder.write("worker.keytab", "not really a keytab")
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet.example.org", keytab: keytab),
            SampleCredentials.negotiate("intranet-2", scope: "https://gis.intranet.example.org", keytab: keytab)))
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: [:])
        }
        #expect(error.code == .conflict && error.credential == "intranet-2" && error.field == "scheme")
        #expect(error.message.contains("at most one negotiate credential"))
    }

    @Test("one negotiate credential gives the process its keytab and a memory credential cache")
    func kerberosEnvironment() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let keytab = try folder.write("worker.keytab", "not really a keytab")
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet.example.org", keytab: keytab)))
        let identity = try #require(try WorkerCredentials.load(path: path, environment: [:]).kerberos)
        #expect(identity.credential == "intranet" && identity.principal == "HTTP/worker@EXAMPLE.ORG")
        #expect(identity.environment == ["KRB5_CLIENT_KTNAME": "FILE:\(keytab)", "KRB5CCNAME": "MEMORY:query-worker"])

        let missing = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet.example.org", keytab: folder.path("gone.keytab"))))
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: missing, environment: [:])
        }
        #expect(error.code == .fileUnreadable && error.credential == "intranet" && error.field == "keytab")
    }

    @Test("a PKCS#12 client certificate must open with its password", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
    func clientCertificatePassword() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let (key, certificate, bundle) = (folder.path("client.key"), folder.path("client.pem"), folder.path("client.p12"))
        let made = try await ContractSupport.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
            "-subj", "/CN=query-worker-test",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let exported = try await ContractSupport.run("/usr/bin/openssl", [
            "pkcs12", "-export", "-inkey", key, "-in", certificate, "-out", bundle, "-passout", "pass:p12-MARKER-right",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let passwordFile = try folder.write("p12-password", "p12-MARKER-wrong\n")
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            #"{"name": "client-cert", "kind": "certificate", "scope": "https://gis.example.org", "#
                + #""path": "\#(bundle)", "password": {"file": "\#(passwordFile)"}}"#))
        let error = try #require(throws: CredentialsConfigurationError.self) {
            try WorkerCredentials.load(path: path, environment: [:])
        }
        #expect(error.credential == "client-cert" && error.field == "password", "\(error)")
        #expect(!"\(error)".contains("p12-MARKER"))

        try folder.write("p12-password", "p12-MARKER-right\n")
        #expect(try WorkerCredentials.load(path: path, environment: [:]).store.all.map(\.name) == ["client-cert"])
    }

    @Test("the setting names a readable file; a missing one is refused naming where it was set")
    func setting() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file())
        let loaded = try WorkerSettings.load(environment: ["QUERY_WORKER_CREDENTIALS_FILE": path])
        #expect(loaded.settings.credentialsFile == path)
        #expect(loaded.settings.logMetadata["credentialsFile"] == .string(path))
        #expect(WorkerSettings().logMetadata["credentialsFile"] == "none")
        let error = try #require(throws: SettingsError.self) {
            try WorkerSettings.load(flags: ["credentialsFile": folder.path("absent.json")], environment: [:])
        }
        #expect(error.key == "credentialsFile" && error.origin == .flag("--credentials-file"))
        #expect(throws: SettingsError.self) {
            try WorkerSettings.load(flags: ["credentialsFile": folder.url.path], environment: [:])
        }
    }

    @Test("query-worker run refuses a bad credentials file, naming the credential and field, never the secret")
    func runCommandRefuses() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            #"{"name": "county-gis", "kind": "token", "scope": "https://gis.example.org/arcgis", "username": "svc", "#
                + #""password": "\#(Self.passwordMarker)", "referer": "https://w.example", "expirationMinutes": 60}"#))
        let output = try await CommandRun.run(executable, ["run", "--credentials-file", path])
        #expect(output.status != 0, "\(output)")
        #expect(output.stderr.contains("credentialsFile \(path): credential 'county-gis', field 'password'"), "\(output)")
        #expect(!output.stderr.contains(Self.passwordMarker) && !output.stdout.contains(Self.passwordMarker))
    }

    @Test("a worker does not start with a bad credentials file")
    func assemblyRefuses() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        var settings = WorkerSettings()
        settings.credentialsFile = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.token("county-gis", scope: "https://gis.example.org/arcgis", passwordFile: folder.path("absent"))))
        var logger = Logger(label: "credentials-startup")
        logger.logLevel = .critical
        #expect(throws: CredentialsConfigurationError.self) { _ = try WorkerAssembly(settings: settings, logger: logger) }
    }
}
