import Foundation
import ChildProcessFixture

/// An NTLM-protected HTTP/1.1 server on loopback: Resources/ntlm_server.py on PyPI's pyspnego (its NTLM
/// acceptor, users from an `NTLM_USER_FILE` of `DOMAIN:USER:PASSWORD` lines). It serves `/ntlm/secret.txt`
/// and, with a ``NetworkAuthUpstream``, proxies its paths (same path, the front's `Host`).
///
/// Why not gss-ntlmssp behind mod_auth_gssapi: Debian's pair completes NTLM only wrapped in SPNEGO
/// (`Negotiate`); libcurl's NTLM scheme sends raw `NTLM` tokens, which mod_auth_gssapi 1.6.4 refuses with
/// "Invalid token was supplied (Failed to decode data)".
package struct NTLMServer: Sendable {
    package static let domain = "QWTEST"
    package static let user = "carol"
    package static let password = "ntlm-pass"
    package static let body = "ntlm secret\n"
    /// What libcurl takes as the user name: `DOMAIN\user`.
    package static var qualifiedUser: String { "\(domain)\\\(user)" }

    package let port: Int
    let server: ServerProcess
    let directory: String

    package var origin: String { "http://127.0.0.1:\(port)" }
    package var fileURL: String { origin + "/ntlm/secret.txt" }

    /// Whether the interop Python has pyspnego (or `QUERY_WORKER_REQUIRE_INTEROP=1` demands the test run).
    package static var isAvailable: Bool {
        if NetworkAuthTools.interopRequired { return true }
        guard let python = NetworkAuthTools.python else { return false }
        let site = URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib").path
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: site)) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: "\(site)/\($0)/site-packages/spnego") }
    }

    package static func with<T>(upstream: NetworkAuthUpstream? = nil, _ body: (NTLMServer) async throws -> T) async throws -> T {
        try await withStarted({ try await start(upstream: upstream) }, stop: { await $0.stop() }, body)
    }

    package static func start(upstream: NetworkAuthUpstream? = nil) async throws -> NTLMServer {
        guard let python = NetworkAuthTools.python else {
            throw NetworkAuthFixtureFailure("no Python with pyspnego: run scripts/setup-deps (it fills .venv) or set QUERY_WORKER_PYTHON")
        }
        let directory = try NetworkAuthTools.makeDirectory(prefix: "ntlm")
        do {
            try NetworkAuthTools.write(body, to: "\(directory)/www/ntlm/secret.txt")
            try NetworkAuthTools.write("\(domain):\(user):\(password)\n", to: "\(directory)/users")
            let server = try await ServerProcess.start(name: "ntlm-server", in: directory, portCount: 1) { ports in
                var arguments = [python, "\(NetworkAuthTools.resources)/ntlm_server.py", String(ports[0]), "\(directory)/users", "\(directory)/www"]
                if let upstream { arguments += [upstream.origin, upstream.paths.joined(separator: ",")] }
                return arguments
            }
            return NTLMServer(port: server.ports[0], server: server, directory: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    package func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The server's log so far.
    package var log: String { server.process.log }
}
