import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WorkerTestSupport

@testable import QueryWorker
@testable import RequestContract

/// The credentials file reloaded on change: a Kubernetes volume update (a `..data` symlink swap), an edit that
/// does not validate (kept out), a removed credential (new requests naming it are `unknown_credential`).
@Suite("Credentials: reload")
struct CredentialsReloadTests {
    static let logger: Logger = {
        var logger = Logger(label: "credentials-reload")
        logger.logLevel = .critical
        return logger
    }()

    static let county = "https://gis.example.org/arcgis"
    static let layer = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"

    /// A folder laid out as Kubernetes mounts a secret or ConfigMap volume: `credentials.json` →
    /// `..data/credentials.json`, `..data` → `..<version>`; ``publish(_:)`` swaps `..data` atomically.
    struct KubernetesVolume {
        let folder: CredentialsFolder
        var version = 0

        init() throws { folder = try CredentialsFolder() }

        var path: String { folder.path("credentials.json") }

        mutating func publish(_ text: String) throws {
            version += 1
            let name = "..2026_11_26_02_00_\(version)"
            try folder.write("\(name)/credentials.json", text)
            let staging = folder.path("..data_tmp")
            try FileManager.default.createSymbolicLink(atPath: staging, withDestinationPath: name)
            guard rename(staging, folder.path("..data")) == 0 else { throw CocoaError(.fileWriteUnknown) }
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "..data/credentials.json")
            }
        }
    }

    static func request(credential: String) -> [UInt8] {
        Array(#"{"requestId":"r","targets":[{"type":"arcgis","url":"\#(layer)"}],"query":{},"credential":"\#(credential)"}"#.utf8)
    }

    static func watch(_ path: String, environment: [String: String] = [:]) throws -> (WorkerCredentials, CredentialsWatch) {
        let credentials = try WorkerCredentials.load(path: path, environment: environment)
        let watch = CredentialsWatch(
            path: path, started: credentials.version, kerberos: credentials.kerberos, resolver: credentials.resolver)
        return (credentials, watch)
    }

    @Test("a Kubernetes ..data symlink swap is a new version, even with the same bytes")
    func kubernetesSwap() throws {
        var volume = try KubernetesVolume()
        defer { volume.folder.remove() }
        try volume.publish(CredentialsFolder.file(SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K")))
        var (_, watch) = try Self.watch(volume.path, environment: ["K": "k"])
        let look1 = watch.look()
        #expect(look1 == .unchanged)

        try volume.publish(CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K"),
            SampleCredentials.apiKey("state-gis", scope: "https://state.example.org", variable: "K")))
        guard case .reloaded(let store) = watch.look() else {
            Issue.record("the swap was not noticed")
            return
        }
        #expect(store.all.map(\.name) == ["county-gis", "state-gis"])
        let look2 = watch.look()
        #expect(look2 == .unchanged)

        // Same bytes behind a new ..data: files beside it may have changed, so it is checked again.
        try volume.publish(CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K"),
            SampleCredentials.apiKey("state-gis", scope: "https://state.example.org", variable: "K")))
        let look3 = watch.look()
        #expect(look3 == .reloaded(store))
    }

    @Test("an edit that does not validate is kept out, reported once, and the next good edit is used")
    func invalidEdit() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K")))
        let (credentials, started) = try Self.watch(path, environment: ["K": "k"])
        var watch = started
        let current = FixedCredentials(credentials.store)

        // An inline secret: refused, naming the credential and field, never the value.
        try folder.write("credentials.json", CredentialsFolder.file(
            #"{"name": "county-gis", "kind": "apiKey", "scope": "\#(Self.county)", "key": "inline-MARKER-77"}"#))
        let change = watch.look()
        guard case .refused(let error) = change else {
            Issue.record("accepted: \(change)")
            return
        }
        #expect(error.credential == "county-gis" && error.field == "key" && error.code == .inlineSecret)
        #expect(!"\(error)".contains("inline-MARKER-77"))
        await CredentialsReloader.apply(change, to: current, path: path, logger: Self.logger)
        #expect(current.replaceCount == 0 && current.store == credentials.store)
        let look4 = watch.look()
        #expect(look4 == .unchanged, "a broken file is reported once")

        // An editor's save: a new file renamed over the old one.
        let staging = try folder.write("credentials.json.swp", CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: "https://gis.example.org/other", variable: "K")))
        #expect(rename(staging, path) == 0)
        let reloaded = watch.look()
        await CredentialsReloader.apply(reloaded, to: current, path: path, logger: Self.logger)
        #expect(current.replaceCount == 1)
        #expect(current.store.credential(named: "county-gis")?.scopes.map(\.description) == ["https://gis.example.org:443/other"])
    }

    @Test("a secret that is not there yet is tried again on every look, without a change to the file")
    func secretAppearsLater() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file())
        var (_, watch) = try Self.watch(path)
        let passwordFile = folder.path("password")
        try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.token("county-gis", scope: Self.county, passwordFile: passwordFile)))
        guard case .refused(let error) = watch.look() else {
            Issue.record("a missing secret was accepted")
            return
        }
        #expect(error.code == .secretUnavailable && error.field == "password")
        let look5 = watch.look()
        #expect(look5 == .unchanged)
        try folder.write("password", "pw\n")
        guard case .reloaded(let store) = watch.look() else {
            Issue.record("the secret that appeared was not picked up")
            return
        }
        #expect(store.all.map(\.name) == ["county-gis"])
    }

    @Test("a reload may not change the Kerberos identity the worker started with")
    func kerberosIdentityIsFixed() throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let keytab = try folder.write("a.keytab", "k")
        let other = try folder.write("b.keytab", "k")
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet.example.org", keytab: keytab)))
        var (_, watch) = try Self.watch(path)
        try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet.example.org", keytab: other)))
        guard case .refused(let error) = watch.look() else {
            Issue.record("a new Kerberos identity was accepted")
            return
        }
        #expect(error.code == .conflict && error.credential == "intranet" && error.field == "keytab")
        #expect(error.message.contains("restart the worker"))
        // Another scope for the same identity is fine.
        try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.negotiate("intranet", scope: "https://intranet2.example.org", keytab: keytab)))
        guard case .reloaded = watch.look() else {
            Issue.record("the same identity was refused")
            return
        }
    }

    @Test("a removed credential: new requests naming it are unknown_credential")
    func removedCredential() async throws {
        let folder = try CredentialsFolder()
        defer { folder.remove() }
        let path = try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K"),
            SampleCredentials.apiKey("county-gis-2", scope: Self.county, variable: "K")))
        let (credentials, started) = try Self.watch(path, environment: ["K": "k"])
        var watch = started
        // The worker's own wiring: the authenticator the engines ask holds the current credentials.
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: Self.logger)
        let wiring = WorkerAssembly.credentialsWiring(credentials, httpClient: client, logger: Self.logger)
        let current = try #require(wiring.current as? CredentialAuthenticator)
        #expect(wiring.authenticator as? CredentialAuthenticator === current)
        let decoder = try ContractSupport.decoder(credentials: wiring.names)
        let before = try? await current.authentication(for: Self.layer, credential: "county-gis")
        #expect(before?.headers.count == 1, "the key goes in one header")
        if case .query(let request) = decoder.decode(Self.request(credential: "county-gis"), key: nil, receivedAt: 0) {
            #expect(request.credential == "county-gis")
        } else {
            Issue.record("the configured credential was refused")
        }

        try folder.write("credentials.json", CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis-2", scope: Self.county, variable: "K")))
        await CredentialsReloader.apply(watch.look(), to: current, path: path, logger: Self.logger)
        if case .rejected(let rejection) = decoder.decode(Self.request(credential: "county-gis"), key: nil, receivedAt: 0) {
            #expect(rejection.code == .unknownCredential && rejection.path == "credential")
        } else {
            Issue.record("a removed credential was accepted")
        }
        // A request that was accepted before the reload and asks now (a page of a long run) is refused too.
        await #expect {
            _ = try await current.authentication(for: Self.layer, credential: "county-gis")
        } throws: { error in
            (error as? AuthenticationFailure)?.code == .unknownCredential
        }
        if case .query = decoder.decode(Self.request(credential: "county-gis-2"), key: nil, receivedAt: 0) {} else {
            Issue.record("the credential that stayed was refused")
        }
        await client.shutdown()
    }

    /// Each look notices a change (the tests above), so a change is in use within one interval plus a look: the
    /// default interval is one second. Timed by looks, not the wall clock: parallel tests on two cores can hold
    /// the cooperative pool for seconds.
    @Test("the reloader service applies a change at its next look and stops on graceful shutdown")
    func service() async throws {
        var volume = try KubernetesVolume()
        defer { volume.folder.remove() }
        try volume.publish(CredentialsFolder.file(SampleCredentials.apiKey("county-gis", scope: Self.county, variable: "K")))
        let credentials = try WorkerCredentials.load(path: volume.path, environment: ["K": "k"])
        let current = FixedCredentials(credentials.store)
        let standard = try #require(CredentialsReloader(credentials: credentials, target: current, logger: Self.logger))
        #expect(standard.interval <= .seconds(1), "a change must be in use within about two seconds")
        // What the group and the reloader said, shown if the change is not applied (once under a heavy load, it
        // was not within 60 s: these lines tell whether the service ran and what each look decided).
        let capture = LogCapture()
        let logger = capture.logger(label: "credentials-reload", level: .trace)
        let reloader = try #require(
            CredentialsReloader(credentials: credentials, target: current, interval: .milliseconds(200), logger: logger))
        #expect(CredentialsReloader(credentials: .none, target: current, logger: Self.logger) == nil)
        let group = ServiceGroup(configuration: .init(services: [reloader], logger: logger))
        let running = Task { try await group.run() }

        try volume.publish(CredentialsFolder.file(SampleCredentials.apiKey("state-gis", scope: Self.county, variable: "K")))
        let start = ContinuousClock.now
        while current.store.credential(named: "state-gis") == nil, ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let waited = ContinuousClock.now - start
        #expect(current.store.all.map(\.name) == ["state-gis"], "after \(waited): \(capture.events.joined(separator: "; "))")
        #expect(current.replaceCount == 1, "one change, one replacement")

        await group.triggerGracefulShutdown()
        try await running.value
    }
}
