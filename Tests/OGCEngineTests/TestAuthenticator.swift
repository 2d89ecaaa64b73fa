import EngineExecution
import Synchronization

/// The engines' collaborator in these tests: a ``RequestAuthenticator`` that hands out one token at a time in a
/// header (or an API key in a query parameter), counts what it is asked, and mints a new token after a
/// rejection only when the rejected token is still the current one (as the worker's authenticator does).
final class TestAuthenticator: RequestAuthenticator {
    struct State {
        var generation: UInt64 = 1
        var asked: [String] = []
        var rejectedCalls = 0
        var minted = 0
    }

    let name: String
    /// `false`: an API key, which a rejection cannot replace (`credential_expired`).
    let refreshable: Bool
    /// The query parameter the token travels in instead of a header (an API key `in: query`).
    let parameter: String?
    private let state = Mutex(State())

    init(name: String = "test-credential", refreshable: Bool = true, parameter: String? = nil) {
        self.name = name
        self.refreshable = refreshable
        self.parameter = parameter
    }

    /// The token of `generation`, as the server sees it.
    static func token(_ generation: UInt64) -> String { "secret-token-\(generation)" }

    var current: String { Self.token(state.withLock { $0.generation }) }
    var snapshot: State { state.withLock { $0 } }

    func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        let generation = state.withLock { state in
            state.asked.append(url)
            return state.generation
        }
        return applied(generation)
    }

    func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? {
        guard refreshable else {
            state.withLock { $0.rejectedCalls += 1 }
            throw AuthenticationFailure(
                .credentialExpired, "the API key \"\(name)\" was refused: replace it in the credentials file", credential: name)
        }
        let generation = state.withLock { state in
            state.rejectedCalls += 1
            if applied.token?.generation == state.generation {
                state.generation += 1
                state.minted += 1
            }
            return state.generation
        }
        return self.applied(generation)
    }

    private func applied(_ generation: UInt64) -> AppliedAuthentication {
        let reference = AppliedAuthentication.TokenReference(
            credential: name, generation: generation, key: "root", isRefreshable: refreshable)
        let value = Self.token(generation)
        if let parameter {
            return AppliedAuthentication(parameters: [.init(name: parameter, value: value)], token: reference, cacheIdentity: name)
        }
        return AppliedAuthentication(
            headers: [.init(name: "X-Esri-Authorization", value: "Bearer " + value)], token: reference, cacheIdentity: name)
    }
}

/// An authenticator whose every answer is a failure (a token service that cannot be reached).
struct FailingAuthenticator: RequestAuthenticator {
    func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        throw AuthenticationFailure(
            .tokenServiceUnavailable, "the token service of \"portal\" could not be reached; try again later",
            credential: "portal", isRetryable: true)
    }

    func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? { nil }
}
