import Authentication
import Credentials
import CurlHTTP
import Foundation
import HTTPTestServer
import Synchronization
import Testing

/// `login` end to end: the test plays the browser (GET the authorize URL, follow the portal's redirect to the
/// loopback listener), then the worker uses the stored session, then `logout` revokes it.
@Suite("OAuth login and logout")
struct LoginTests {
    /// A port for a login listener, free when it was checked. Taken below the kernel's ephemeral range
    /// (32768 and up on Linux), where the servers of the other suites (bound on port 0) never land, and each
    /// handed out once per process, so two suites never race for the same one.
    static func freePort() async throws -> Int {
        while true {
            let port = nextListenerPort.add(1, ordering: .relaxed).newValue
            guard port < 32_768 else { throw TestFailure("no free port below the ephemeral range") }
            guard let probe = try? await TestHTTPServer.start(port: port, logger: TestSupport.logger, handler: { _ in .text("") })
            else { continue }
            await probe.stop()
            return port
        }
    }

    /// The last port handed out; the first is spread by process id, for test processes that run side by side.
    private static let nextListenerPort = Atomic<Int>(20_000 + Int(getpid() % 400) * 25)

    private func credential(_ portal: FakePortal, file: String, port: Int, clientID: String = FakePortal.userClientID) throws -> Credential {
        try TestSupport.credential(
            #""name":"me","kind":"oauthUser","scope":"\#(portal.base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(clientID)","refreshTokenFile":"\#(file)","redirectUri":"http://127.0.0.1:\#(port)/callback""#)
    }

    /// Starts `login`, returns the task and the authorize URL it announced. A login that ends before it
    /// announces one (its listener could not start) ends the stream too, so the test fails with the login's
    /// error instead of waiting for ever.
    static func start(_ login: OAuthLogin, timeout: Duration = .seconds(20)) async throws -> (Task<OAuthLogin.Session, any Error>, String) {
        let (urls, sink) = AsyncStream.makeStream(of: String.self)
        let task = Task {
            defer { sink.finish() }
            return try await login.run(timeout: timeout) { sink.yield($0) }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else {
            _ = try await task.value
            throw TestFailure("login ended without announcing a URL")
        }
        return (task, url)
    }

    /// The browser: the authorize URL answers with a redirect, which is followed to the listener.
    static func approve(_ url: String, client: HTTPClient) async throws -> HTTPResponse {
        let authorize = try await client.execute(HTTPRequest(url: url))
        #expect(authorize.status == 302)
        let location = try #require(authorize.headers["Location"])
        return try await client.execute(HTTPRequest(url: location))
    }

    @Test("sign in, use the session, sign out: PKCE checked by the portal, file 0600, revocation counted, file gone")
    func endToEnd() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        let port = try await Self.freePort()
        try await TestSupport.withPortal { portal, client in
            let credential = try credential(portal, file: file, port: port)
            let login = try OAuthLogin(credential: credential, redirectURI: nil, client: client, logger: TestSupport.logger)
            let (task, url) = try await Self.start(login)
            #expect(url.hasPrefix(portal.portalURL + "/sharing/rest/oauth2/authorize?"))
            #expect(url.contains("code_challenge=\(login.pkce.challenge)"))
            #expect(url.contains("code_challenge_method=S256"))
            #expect(!url.contains(login.pkce.verifier.revealed()))
            let page = try await Self.approve(url, client: client)
            #expect(page.status == 200)
            let session = try await task.value
            #expect(session.username == FakePortal.username)
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
            let stored = try RefreshTokenFile.read(path: file)
            #expect(stored.redirectURI == "http://127.0.0.1:\(port)/callback")
            #expect(stored.expiresAtMilliseconds != nil)

            let issuer = TestSupport.issuer(client)
            let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            #expect(try await issuer.issue(credential, for: audience).grant.token.revealed().hasPrefix("user-"))

            #expect(try await issuer.logOut(credential))
            #expect(portal.snapshot.revoked == [stored.refreshToken.revealed()])
            #expect(portal.calls("/portal/sharing/rest/oauth2/revokeToken") == 1)
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(try await issuer.logOut(credential) == false)
            do {
                _ = try await issuer.issue(credential, for: audience)
                Issue.record("a signed-out credential got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .reloginRequired)
            }
        }
    }

    @Test("a redirect with another state is refused and nothing is stored")
    func wrongState() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        let port = try await Self.freePort()
        try await TestSupport.withPortal { portal, client in
            let login = try OAuthLogin(credential: try credential(portal, file: file, port: port), redirectURI: nil, client: client, logger: TestSupport.logger)
            let (task, _) = try await Self.start(login)
            let page = try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/callback?code=forged&state=not-the-state"))
            #expect(page.status == 400)
            await #expect(throws: OAuthSessionFailure.self) { _ = try await task.value }
            do { _ = try await task.value } catch let error as OAuthSessionFailure { #expect(error.code == .wrongState) }
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("a declined sign-in, a busy port and no browser at all end with their own errors")
    func failures() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        let port = try await Self.freePort()
        try await TestSupport.withPortal { portal, client in
            let declined = try OAuthLogin(
                credential: try credential(portal, file: file, port: port, clientID: "unknown-app"), redirectURI: nil, client: client,
                logger: TestSupport.logger)
            let (task, url) = try await Self.start(declined)
            _ = try await Self.approve(url, client: client)
            do {
                _ = try await task.value
                Issue.record("a declined sign-in succeeded")
            } catch let error as OAuthSessionFailure {
                #expect(error.code == .denied)
                #expect(error.message.contains("access_denied"))
            }

            let squatter = try await TestHTTPServer.start(port: port, logger: TestSupport.logger) { _ in .text("") }
            let busy = try OAuthLogin(credential: try credential(portal, file: file, port: port), redirectURI: nil, client: client, logger: TestSupport.logger)
            do {
                _ = try await busy.run(timeout: .seconds(5)) { _ in Issue.record("announced despite a busy port") }
                Issue.record("listened on a busy port")
            } catch let error as OAuthSessionFailure {
                #expect(error.code == .portUnavailable)
            }
            await squatter.stop()

            let unattended = try OAuthLogin(credential: try credential(portal, file: file, port: port), redirectURI: nil, client: client, logger: TestSupport.logger)
            do {
                _ = try await unattended.run(timeout: .milliseconds(300)) { _ in }
                Issue.record("a login without a browser succeeded")
            } catch let error as OAuthSessionFailure {
                #expect(error.code == .timedOut)
                #expect(error.message.contains("ssh -L \(port):127.0.0.1:\(port)"))
            }
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("the redirect must be a loopback http URL with a port")
    func redirectValidation() throws {
        #expect(LoopbackRedirect("http://127.0.0.1:7890/callback")?.port == 7890)
        #expect(LoopbackRedirect("http://localhost:7890/cb")?.listenHost == "127.0.0.1")
        #expect(LoopbackRedirect("http://[::1]:7890/")?.listenHost == "::1")
        #expect(LoopbackRedirect("http://127.0.0.1/callback") == nil)
        #expect(LoopbackRedirect("https://127.0.0.1:7890/callback") == nil)
        #expect(LoopbackRedirect("http://example.com:7890/callback") == nil)
        #expect(throws: CredentialsConfigurationError.self) {
            try TestSupport.credential(
                #""name":"me","kind":"oauthUser","scope":"https://p.example.com","portalUrl":"https://p.example.com/portal","clientId":"c","refreshTokenFile":"/x","redirectUri":"https://evil.example.com/cb""#)
        }
    }
}
