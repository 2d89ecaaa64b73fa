package import EngineExecution
import Synchronization

/// The engines' collaborator in these tests: a ``RequestAuthenticator`` that hands out one token at a time in a
/// header (or an API key in a query parameter), counts what it is asked, and mints a new token after a
/// rejection only when the rejected token is still the current one (as the worker's authenticator does).
package final class TestAuthenticator: RequestAuthenticator {
    package struct State {
        package var generation: UInt64 = 1
        package var asked: [String] = []
        package var rejectedCalls = 0
        package var minted = 0
    }

    package let name: String
    /// `false`: an API key, which a rejection cannot replace (`credential_expired`).
    package let refreshable: Bool
    /// The query parameter the token travels in instead of a header (an API key `in: query`).
    package let parameter: String?
    /// Every token it hands out is already due for refresh (short-lived tokens): a rejection of one may be its
    /// expiry.
    package let tokensRunOut: Bool
    private let state = Mutex(State())

    package init(name: String = "test-credential", refreshable: Bool = true, parameter: String? = nil, tokensRunOut: Bool = false) {
        self.name = name
        self.refreshable = refreshable
        self.parameter = parameter
        self.tokensRunOut = tokensRunOut
    }

    /// The token of `generation`, as the server sees it.
    package static func token(_ generation: UInt64) -> String { "secret-token-\(generation)" }

    package var current: String { Self.token(state.withLock { $0.generation }) }
    package var snapshot: State { state.withLock { $0 } }

    package func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        let generation = state.withLock { state in
            state.asked.append(url)
            return state.generation
        }
        return applied(generation)
    }

    package func rejected(
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
        let now = ContinuousClock.now
        let reference = AppliedAuthentication.TokenReference(
            credential: name, generation: generation, key: "root", isRefreshable: refreshable, sentAt: now,
            expiringFrom: tokensRunOut ? now : nil)
        let value = Self.token(generation)
        if let parameter {
            return AppliedAuthentication(parameters: [.init(name: parameter, value: value)], token: reference, cacheIdentity: name)
        }
        return AppliedAuthentication(
            headers: [.init(name: "X-Esri-Authorization", value: "Bearer " + value)], token: reference, cacheIdentity: name)
    }
}

/// An authenticator whose every answer is a failure (a token service that cannot be reached).
package struct FailingAuthenticator: RequestAuthenticator {
    package init() {}
    package func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        throw AuthenticationFailure(
            .tokenServiceUnavailable, "the token service of \"portal\" could not be reached; try again later",
            credential: "portal", isRetryable: true)
    }

    package func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? { nil }
}
