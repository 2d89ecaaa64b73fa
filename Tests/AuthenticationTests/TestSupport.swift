import Authentication
import Credentials
import CurlHTTP
import Foundation
import Logging

enum TestSupport {
    static let logger: Logger = {
        var logger = Logger(label: "authentication-tests") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    /// The secrets the fake portal accepts, by the environment variable names the test credentials use.
    static let resolver = SecretResolver(environment: [
        "PW": FakePortal.password, "WRONG_PW": "not-the-password", "APP_SECRET": FakePortal.appSecret,
        "WRONG_SECRET": "not-the-secret", "O2_SECRET": FakePortal.oauth2Secret,
    ])

    /// One credential from its JSON members (name and kind included), through the real file parser.
    static func credential(_ members: String) throws -> Credential {
        let store = try CredentialsFile.decode(Array(#"{"credentials":[{\#(members)}]}"#.utf8))
        guard let credential = store.all.first else { throw TestFailure("no credential parsed") }
        return credential
    }

    static func issuer(_ client: HTTPClient) -> ArcGISTokenIssuer {
        ArcGISTokenIssuer(client: client, resolver: resolver, logger: logger)
    }

    /// A fresh private folder under the system's temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "auth-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `body` with a started fake portal and an HTTP client, shutting both down afterwards.
    static func withPortal<T>(_ body: (FakePortal, HTTPClient) async throws -> T) async throws -> T {
        let portal = try await FakePortal.start()
        let client = try HTTPClient(logger: logger)
        do {
            let result = try await body(portal, client)
            await client.shutdown()
            await portal.shutdown()
            return result
        } catch {
            await client.shutdown()
            await portal.shutdown()
            throw error
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
