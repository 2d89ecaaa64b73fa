import Credentials
import EngineExecution
import Logging
import Synchronization

extension CredentialAuthenticator {
    /// What the requesting task does after the lock is released.
    private enum Step {
        case use(GrantedToken)
        case useAndRefresh(GrantedToken, Refresh)
        case waitAndRefresh(Refresh)
        case wait
        case fail(TokenFailure)
        case cancelled
    }

    /// A token call to make: which ticket, for which slot, with which configuration.
    struct Refresh: Sendable {
        var ticket: RefreshTicket
        var key: TokenSlot.Key
        var credential: Credential
        var audience: TokenAudience
        /// Replaces a token the credential had (due for refresh, or rejected): a failure is a failed refresh.
        var renewing = false
    }

    /// The token of `credential` for `audience`: the current one, or after the one shared token call.
    func token(
        of credential: Credential, audience: TokenAudience, demand: Demand
    ) async throws -> (IssuedToken, TokenSlot.Presentation) {
        let key = TokenSlot.Key(credential: credential.name, audience: audience.key)
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let granted = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: TokenSlot.Waiter) in
                let step = state.withLock { state in
                    self.step(for: key, credential: credential, audience: audience, demand: demand, waiter: waiter, id: id, in: &state)
                }
                switch step {
                case .use(let granted):
                    waiter.resume(returning: granted)
                case .useAndRefresh(let granted, let refresh):
                    waiter.resume(returning: granted)
                    start(refresh)
                case .waitAndRefresh(let refresh):
                    start(refresh)
                case .wait:
                    break
                case .fail(let failure):
                    waiter.resume(throwing: Self.authenticationFailure(failure, credential: credential.name))
                case .cancelled:
                    waiter.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.tokens[key]?.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
        return (granted.token, TokenSlot.Presentation(referer: granted.referer, requiresTLS: granted.requiresTLS))
    }

    /// Feeds the request to the slot's machine (making the slot on first use) and parks it if it must wait.
    private func step(
        for key: TokenSlot.Key, credential: Credential, audience: TokenAudience, demand: Demand,
        waiter: TokenSlot.Waiter, id: UInt64, in state: inout State
    ) -> Step {
        if Task.isCancelled { return .cancelled }
        var slot = state.tokens[key] ?? TokenSlot(credential: credential, audience: audience, policy: policy)
        defer { state.tokens[key] = slot }
        let now = clock.now
        let action =
            switch demand {
            case .current: slot.machine.tokenNeeded(now: now)
            case .replacing(let generation, let sentAt): slot.machine.tokenRejected(generation: generation, sentAt: sentAt, now: now)
            }
        func refresh(_ ticket: RefreshTicket, renewing: Bool) -> Refresh {
            state.statistics[key.credential, default: AuthenticatorStatistics()].tokenCalls += 1
            return Refresh(ticket: ticket, key: key, credential: slot.credential, audience: slot.audience, renewing: renewing)
        }
        switch action {
        case .use(let token):
            return .use(GrantedToken(token, slot.presentation(of: token)))
        case .useAndRefresh(let token, let ticket):
            return .useAndRefresh(GrantedToken(token, slot.presentation(of: token)), refresh(ticket, renewing: true))
        case .startRefresh(let ticket):
            slot.waiters[id] = waiter
            let renewing = if case .replacing = demand { true } else { false }
            return .waitAndRefresh(refresh(ticket, renewing: renewing))
        case .wait:
            slot.waiters[id] = waiter
            return .wait
        case .fail(let failure):
            return .fail(failure)
        }
    }

    /// Runs the token call in its own task: it is shared by every request waiting for it.
    func start(_ refresh: Refresh) {
        // Shared by every request waiting for the token: no single request's ids on its lines.
        RequestLogContext.withoutRequest { _ = Task { await self.perform(refresh) } }
    }

    /// Makes the token call and hands its result to the machine and the waiting requests.
    func perform(_ refresh: Refresh) async {
        let result: Result<IssuedGrant, TokenFailure>
        do {
            result = .success(try await issuer.issue(refresh.credential, for: refresh.audience))
        } catch {
            result = .failure(error)
        }
        let succeeded = if case .success = result { true } else { false }
        metrics.tokenCall(credential: refresh.credential.name, succeeded: succeeded, renewing: refresh.renewing)
        let now = clock.now
        // A slot is made by the first request of its credential and audience, which starts this call: the gauge
        // of the authenticator's caches is recorded here (and where a reload drops slots), not per request.
        metrics.cacheEntries(state.withLock { $0.cacheSizes })
        let (waiters, outcome) = state.withLock { state -> ([TokenSlot.Waiter], Result<GrantedToken, TokenFailure>?) in
            guard var slot = state.tokens[refresh.key] else { return ([], nil) }
            defer { state.tokens[refresh.key] = slot }
            switch result {
            case .success(let issued):
                guard case .succeedWaiters(let token) = slot.machine.refreshSucceeded(refresh.ticket, grant: issued.grant, now: now)
                else { return ([], nil) }
                slot.remember(issued, generation: token.generation)
                return (slot.takeWaiters(), .success(GrantedToken(token, slot.presentation(of: token))))
            case .failure(let failure):
                state.statistics[refresh.key.credential, default: AuthenticatorStatistics()].failedTokenCalls += 1
                guard case .failWaiters(let failure) = slot.machine.refreshFailed(refresh.ticket, error: failure, now: now)
                else { return ([], nil) }
                return (slot.takeWaiters(), .failure(failure))
            }
        }
        let metadata: Logger.Metadata = ["credential": "\(refresh.credential.name)", "audience": "\(refresh.audience.key)"]
        switch outcome {
        case .success(let granted):
            logger.info("obtained a token", metadata: metadata.merging(["waiters": "\(waiters.count)"]) { $1 })
            for waiter in waiters { waiter.resume(returning: granted) }
        case .failure(let failure):
            logger.warning(
                "token call failed",
                metadata: metadata.merging([
                    "error.code": "\(failure.code)", "error.message": "\(failure.message)", "waiters": "\(waiters.count)",
                ]) { $1 })
            let error = Self.authenticationFailure(failure, credential: refresh.credential.name)
            for waiter in waiters { waiter.resume(throwing: error) }
        case nil:
            logger.debug("token call result dropped: the credential changed meanwhile", metadata: metadata)
        }
    }

    /// A token call's failure in the engines' terms (the codes are spelt alike). A missing secret is retried by
    /// the state machine but is no transient failure for the request: an operator has to put the file back.
    static func authenticationFailure(_ failure: TokenFailure, credential: String) -> AuthenticationFailure {
        AuthenticationFailure(
            AuthenticationFailure.Code(failure.code.rawValue), failure.message, credential: credential,
            isRetryable: failure.isRetryable && failure.code != .credentialUnavailable)
    }
}
