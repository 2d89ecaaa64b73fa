import BenchmarkSupport
import CurlHTTP
import Foundation
import Logging

/// The sample server's test-only security admin, `/_sample/security` (docs/sample-server-security.md):
/// its counters of token calls and rejections, and the actions the benchmark takes (revoke every token,
/// zero the counters). The server runs in another process, so this goes over HTTP.
struct SecurityAdmin {
    /// What the counters say (the ones the benchmark reports).
    struct Counters: Sendable {
        /// Every call to a token endpoint (generateToken, exchange, oauth2/token).
        var tokenCalls: Int
        /// Password sign-ins: the portal's `generateToken` and a standalone server's own. One per token the
        /// worker obtains; for a server federated with the portal (the sample portal's own `/arcgis` names the
        /// portal as its owner) each is followed by one `exchange`.
        var signIns: Int
        var exchange: Int
        /// Secured requests refused with 498 (an expired, revoked or unknown token).
        var rejected498: Int
        /// Secured requests let through.
        var accepted: Int
    }

    /// `http://host:port/_sample/security`.
    let url: String
    let client: HTTPClient

    /// The admin of the server whose services URL (`…/arcgis/rest/services`) is `serverURL`.
    init(serverURL: String, logger: Logger) throws {
        guard let root = serverURL.range(of: "/arcgis/rest/services").map({ String(serverURL[..<$0.lowerBound]) }) else {
            throw BenchmarkError("the server URL \(serverURL) does not end in /arcgis/rest/services")
        }
        url = root + "/_sample/security"
        client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
    }

    /// The counters now.
    func counters() async throws -> Counters {
        try Self.counters(from: try await client.execute(HTTPRequest(url: url)))
    }

    /// Revokes every token the server issued (the next request with one gets 498) and zeroes the counters,
    /// in one request; returns the counters as they were zeroed.
    func revokeAllAndReset() async throws -> Counters {
        try Self.counters(from: try await client.execute(.formPost(url: url, fields: [("revokeAll", "true"), ("resetCounters", "true")])))
    }

    /// Zeroes the counters.
    func reset() async throws {
        _ = try Self.counters(from: try await client.execute(.formPost(url: url, fields: [("resetCounters", "true")])))
    }

    /// Runs `body` with the admin of the server at `serverURL`, then closes its HTTP client.
    static func with<T>(serverURL: String, logger: Logger, _ body: (SecurityAdmin) async throws -> T) async throws -> T {
        let admin = try SecurityAdmin(serverURL: serverURL, logger: logger)
        do {
            let result = try await body(admin)
            await admin.client.shutdown()
            return result
        } catch {
            await admin.client.shutdown()
            throw error
        }
    }

    private static func counters(from response: HTTPResponse) throws -> Counters {
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let counters = object["counters"] as? [String: Any]
        else {
            throw BenchmarkError("the security admin answered HTTP \(response.status): \(response.bodyString.prefix(200)) (is the server --secure?)")
        }
        func number(_ name: String) -> Int { (counters[name] as? NSNumber)?.intValue ?? 0 }
        let rejected = counters["rejected"] as? [String: Any]
        return Counters(
            tokenCalls: number("tokenCalls"), signIns: number("generateToken") + number("serverGenerateToken"), exchange: number("exchange"),
            rejected498: (rejected?["498"] as? NSNumber)?.intValue ?? 0, accepted: number("accepted"))
    }
}

/// The operator's credentials file for the benchmark's workers: one `token` credential for the server's
/// `Secured` folder and its portal (the sample server's test user), its password in a file of mode 0600.
enum BenchmarkCredentials {
    static let name = "bench-token"

    /// Writes `<folder>/<prefix>-credentials.json` (and its password file) for the `Secured` folder of the
    /// server at `serverURL`; returns the file's path.
    static func write(serverURL: String, username: String, password: String, folder: String, prefix: String) throws -> String {
        // The password goes only to a token service under the scopes: the portal's, on the same server.
        guard let root = serverURL.range(of: "/arcgis/rest/services").map({ String(serverURL[..<$0.lowerBound]) }) else {
            throw BenchmarkError("the server URL \(serverURL) does not end in /arcgis/rest/services")
        }
        let passwordFile = "\(folder)/\(prefix)-password"
        let file = "\(folder)/\(prefix)-credentials.json"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600])
        else { throw BenchmarkError("cannot write \(passwordFile)") }
        let credential: [String: Any] = [
            "name": name, "kind": "token", "scope": [serverURL + "/Secured", root + "/portal"], "username": username,
            "password": ["file": passwordFile], "referer": "https://query-worker.benchmark", "expirationMinutes": 60,
        ]
        let json = try JSONSerialization.data(withJSONObject: ["credentials": [credential]], options: [.sortedKeys, .withoutEscapingSlashes])
        guard FileManager.default.createFile(atPath: file, contents: json) else { throw BenchmarkError("cannot write \(file)") }
        return file
    }
}
