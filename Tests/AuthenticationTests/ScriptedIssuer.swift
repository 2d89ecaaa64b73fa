import Authentication
import Credentials
import EngineExecution
import Synchronization

/// A `TokenIssuer` whose token calls the test scripts: it counts calls, can hold them until released, and
/// answers with numbered tokens or the failures queued. The collaborator of the authenticator under test; the
/// real issuer is tested against the sample portal.
final class ScriptedIssuer: TokenIssuer {
    struct Script {
        var calls = 0
        var failures: [TokenFailure] = []
        var lifetime: Duration? = .seconds(3_600)
        var requiresTLS = false
        var referer: String?
        var held: [CheckedContinuation<Void, Never>] = []
        var hold = false
        var signedOut: [String] = []
        var audienceKey: String?
    }

    let script = Mutex(Script())

    var calls: Int { script.withLock { $0.calls } }
    var signedOut: [String] { script.withLock { $0.signedOut } }

    func configure(_ change: (inout Script) -> Void) { script.withLock { change(&$0) } }

    /// Holds every token call until ``release()``: many requests can pile up behind one call.
    func holdCalls() { script.withLock { $0.hold = true } }

    func release() {
        let held = script.withLock { script in
            script.hold = false
            defer { script.held = [] }
            return script.held
        }
        for call in held { call.resume() }
    }

    /// Waits until `count` calls are held.
    func waitForHeldCalls(_ count: Int) async {
        while script.withLock({ $0.held.count }) < count { try? await Task.sleep(for: .milliseconds(5)) }
    }

    func audience(for credential: Credential, url: String) async throws(AuthenticationFailure) -> TokenAudience {
        let key = script.withLock { $0.audienceKey } ?? "https://portal.test/token"
        return TokenAudience(key: key, tokenServiceURL: "https://portal.test/token")
    }

    func issue(_ credential: Credential, for audience: TokenAudience) async throws(TokenFailure) -> IssuedGrant {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hold = script.withLock { script in
                if script.hold { script.held.append(continuation) }
                return script.hold
            }
            if !hold { continuation.resume() }
        }
        let (number, failure, lifetime, requiresTLS, referer) = script.withLock { script in
            script.calls += 1
            let failure = script.failures.isEmpty ? nil : script.failures.removeFirst()
            return (script.calls, failure, script.lifetime, script.requiresTLS, script.referer)
        }
        if let failure { throw failure }
        return IssuedGrant(
            grant: TokenGrant(token: Secret("token-\(number)"), serverExpiry: nil, requestedLifetime: lifetime),
            referer: referer, requiresTLS: requiresTLS)
    }

    func signOut(_ credential: Credential) async {
        script.withLock { $0.signedOut.append(credential.name) }
    }
}
