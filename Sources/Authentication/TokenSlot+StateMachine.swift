extension TokenSlot {
    /// The token of one credential through its life: fetched on first use, shared, refreshed once before it
    /// expires, and refreshed once when the server rejects it, however many requests ask at the same time.
    ///
    /// A value type in the style of async-http-client's `RequestBag.StateMachine`: its slot keeps it beside the
    /// requests that wait for its token call, ``CredentialAuthenticator`` keeps the slots behind one lock, feeds
    /// the machine events (a request needs a token, a token call finished, the server rejected a token, the
    /// credential changed), and performs the returned action after releasing the lock. It reads no clock (every
    /// event carries `now`), starts no task, and holds no continuation: the owner keeps the waiting requests,
    /// including the one told to start the refresh, and resumes them all when the refresh's action says so.
    struct StateMachine: Sendable {
        /// Where the credential's token stands. Each case carries its own data, so two refreshes in flight, a
        /// failure without its retry time, or a waiter-less state with a stale ticket can't be represented.
        enum State: Sendable, Hashable {
            /// No token yet, or the last one was dropped.
            case empty
            /// A token: used as it is until ``IssuedToken/refreshAfter``, then used while one refresh runs, until
            /// ``IssuedToken/usableUntil``.
            case valid(IssuedToken)
            /// A token call in flight; requests use the token it replaces while that is usable, else wait for it.
            case refreshing(Refresh)
            /// The last token call failed; requests use the token it was to replace while that is usable, else
            /// fail fast with its error, until `retryAt`.
            case failed(Failure)
        }

        struct Refresh: Sendable, Hashable {
            var generation: UInt64
            var startedAt: ContinuousClock.Instant
            /// Retryable failures in a row before this refresh, for the backoff should it fail too.
            var consecutiveFailures: Int
            /// The token being replaced, due for refresh but perhaps still usable.
            var previous: IssuedToken?
            /// Started because a service rejected the current token: the token it brings is marked so.
            var replacesRejected = false
        }

        struct Failure: Sendable, Hashable {
            var error: TokenFailure
            var retryAt: ContinuousClock.Instant
            var consecutiveFailures: Int
            /// The token the failed call was to replace, perhaps still usable.
            var previous: IssuedToken?
        }

        /// What a request that needs a token does next.
        enum TokenAction: Sendable, Hashable {
            /// Send the request with this token.
            case use(IssuedToken)
            /// Send the request with this token, which is due for replacement, and meanwhile make the token call
            /// with this ticket and report its result; nobody waits for it.
            case useAndRefresh(IssuedToken, RefreshTicket)
            /// Make the token call with this ticket, report its result, and wait for it like every other waiter.
            case startRefresh(RefreshTicket)
            /// A token call is in flight: wait for the result of ``refreshSucceeded(_:grant:now:)`` or
            /// ``refreshFailed(_:error:now:)``.
            case wait
            /// Fail the request without a token call.
            case fail(TokenFailure)
        }

        /// What the owner does with the requests waiting for a token call.
        enum RefreshResultAction: Sendable, Hashable {
            /// Resume every waiter with this token.
            case succeedWaiters(IssuedToken)
            /// Fail every waiter with this error.
            case failWaiters(TokenFailure)
            /// A result of a refresh made stale by an invalidation: drop it; the waiters wait for the newer one.
            case ignore
        }

        /// What the owner does after the credential changed.
        enum InvalidationAction: Sendable, Hashable {
            /// Nothing: the next request fetches a token.
            case none
            /// Requests were waiting for a refresh whose result is now stale: make a new token call with this
            /// ticket (the old call may be cancelled) and resume the waiters with its result.
            case startRefresh(RefreshTicket)
        }

        var state: State = .empty
        /// The generation of the newest refresh started; tokens and tickets carry it.
        private var generation: UInt64 = 0
        let policy: TokenRefreshPolicy

        init(policy: TokenRefreshPolicy = TokenRefreshPolicy()) { self.policy = policy }

        /// A request needs a token at `now`.
        mutating func tokenNeeded(now: ContinuousClock.Instant) -> TokenAction {
            token(now: now, outliving: .zero)
        }

        /// A token for a request sent at `now` whose token may be judged only `wait` later (a request before it
        /// waited that long at the server and was rejected on the way out): a token that does not live longer
        /// than the wait is not handed out. A refresh starts instead, or the request waits for the one in
        /// flight; requests without a wait go on using the token meanwhile.
        private mutating func token(now: ContinuousClock.Instant, outliving wait: Duration) -> TokenAction {
            switch state {
            case .valid(let token) where token.isUsable(at: now):
                guard token.outlives(wait, from: now) else {
                    return .startRefresh(beginRefresh(now: now, consecutiveFailures: 0, previous: token))
                }
                guard token.isDue(at: now) else { return .use(token) }
                return .useAndRefresh(token, beginRefresh(now: now, consecutiveFailures: 0, previous: token))
            case .valid, .empty:
                return .startRefresh(beginRefresh(now: now, consecutiveFailures: 0, previous: nil))
            case .refreshing(let refresh):
                guard let previous = refresh.previous, previous.isUsable(at: now), previous.outlives(wait, from: now)
                else { return .wait }
                return .use(previous)
            case .failed(let failure):
                let previous = failure.previous.flatMap { $0.isUsable(at: now) && $0.outlives(wait, from: now) ? $0 : nil }
                guard now >= failure.retryAt else { return previous.map { .use($0) } ?? .fail(failure.error) }
                let failures = failure.error.isRetryable ? failure.consecutiveFailures : 0
                let ticket = beginRefresh(now: now, consecutiveFailures: failures, previous: previous)
                return previous.map { .useAndRefresh($0, ticket) } ?? .startRefresh(ticket)
            }
        }

        /// The server answered 498/499 at `now` to a request sent at `sentAt` with `token`; the request wants a
        /// token for its retry.
        ///
        /// Only a rejection of the current token (or of the one a refresh in flight or failed was to replace)
        /// drops it: a rejection of an older one is answered with the newer token (or a wait for the refresh
        /// already in flight), so many requests rejected together cause one token call. Either way the token
        /// handed out lives longer than the rejected request waited at the server, so a short-lived token is
        /// not rejected again on the retry for the same reason.
        ///
        /// A token that replaced a rejected one and is refused in turn (``refuses(_:sentAt:now:)``) is not
        /// refreshed again: the server refuses every token of the credential (a wrong referer, a token URL of
        /// another server), which is remembered as a terminal `credential_rejected` for
        /// ``TokenRefreshPolicy/terminalWindow``. A first token rejected that fast is refreshed once: an operator
        /// may just have revoked it.
        mutating func tokenRejected(
            _ token: IssuedToken, sentAt: ContinuousClock.Instant, now: ContinuousClock.Instant
        ) -> TokenAction {
            tokenRejected(generation: token.generation, sentAt: sentAt, now: now)
        }

        /// ``tokenRejected(_:sentAt:now:)`` for the token of `generation`: what a request that kept only the
        /// generation (not the secret) gives back.
        mutating func tokenRejected(
            generation rejected: UInt64, sentAt: ContinuousClock.Instant, now: ContinuousClock.Instant
        ) -> TokenAction {
            switch state {
            case .valid(let current) where current.generation == rejected:
                guard !refuses(current, sentAt: sentAt, now: now) else {
                    let error = TokenFailure(
                        code: .credentialRejected,
                        message: "the server rejected a token sent moments after it was issued and long before it expired; "
                            + "check the credential's referer and token URL",
                        isRetryable: false)
                    state = .failed(Failure(error: error, retryAt: now + policy.terminalWindow, consecutiveFailures: 0, previous: nil))
                    return .fail(error)
                }
                state = .empty
                return .startRefresh(
                    beginRefresh(now: now, consecutiveFailures: 0, previous: nil, replacesRejected: true))
            case .refreshing(var refresh) where refresh.previous?.generation == rejected:
                refresh.previous = nil
                state = .refreshing(refresh)
            case .failed(var failure) where failure.previous?.generation == rejected:
                failure.previous = nil
                state = .failed(failure)
            case .empty, .valid, .refreshing, .failed:
                break
            }
            return token(now: now, outliving: max(now - sentAt, .zero))
        }

        /// Whether the rejection of `token`, sent at `sentAt` and answered at `now`, means the server refuses
        /// every token of the credential rather than that this one ran out: it replaced a rejected token, it
        /// was sent within ``TokenRefreshPolicy/freshTokenWindow`` of its issue (the time it was sent, not
        /// answered: a slow answer does not make a refusal look old), and the answer came before its refresh
        /// point (``IssuedToken/mayHaveExpired(at:)``: a token that lives less than the window, or a request
        /// that waited at the server past the token's life, is an expiry, refreshed like any other).
        func refuses(_ token: IssuedToken, sentAt: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Bool {
            token.replacesRejected && sentAt - token.issuedAt < policy.freshTokenWindow && !token.mayHaveExpired(at: now)
        }

        /// The credential's configuration changed (a reload) or its token must not be used any more: drop the
        /// token and any remembered failure. A refresh in flight becomes stale; its waiters get a new one's result.
        mutating func credentialChanged(now: ContinuousClock.Instant) -> InvalidationAction {
            switch state {
            case .refreshing:
                // Requests may be waiting (even for a refresh that began proactively, once the old token ran out).
                return .startRefresh(beginRefresh(now: now, consecutiveFailures: 0, previous: nil))
            case .empty, .valid, .failed:
                generation += 1
                state = .empty
                return .none
            }
        }

        /// Moves to `.refreshing` with a new generation.
        mutating func beginRefresh(
            now: ContinuousClock.Instant, consecutiveFailures: Int, previous: IssuedToken?, replacesRejected: Bool = false
        ) -> RefreshTicket {
            generation += 1
            state = .refreshing(
                Refresh(
                    generation: generation, startedAt: now, consecutiveFailures: consecutiveFailures, previous: previous,
                    replacesRejected: replacesRejected))
            return RefreshTicket(generation: generation)
        }
    }
}
