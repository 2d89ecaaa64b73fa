import Credentials
import Testing

@testable import Authentication

/// The token state machine, event by event: no clock read, no I/O; time is an offset from one instant.
@Suite("TokenSlot.StateMachine: one credential's token, as a value")
struct TokenSlotStateMachineTests {
    static let marker = "MARKERtk9"
    let t0 = ContinuousClock.now

    func at(_ seconds: Int) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    static let outage = TokenFailure(code: .tokenServiceUnavailable, message: "token endpoint answered 503", isRetryable: true)
    static let wrongPassword = TokenFailure(code: .credentialRejected, message: "invalid username or password", isRetryable: false)

    static func grant(_ value: String, server: ContinuousClock.Instant? = nil, lifetime: Duration? = .seconds(3600)) -> TokenGrant {
        TokenGrant(token: Secret(value), serverExpiry: server, requestedLifetime: lifetime)
    }

    /// The ticket of a `.startRefresh`, recording an issue when the action is something else.
    static func ticket(_ action: TokenSlot.StateMachine.TokenAction, sourceLocation: SourceLocation = #_sourceLocation) -> RefreshTicket? {
        guard case .startRefresh(let ticket) = action else {
            Issue.record("expected startRefresh, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        return ticket
    }

    static func token(_ action: some Sendable) -> IssuedToken? {
        switch action {
        case let action as TokenSlot.StateMachine.TokenAction:
            if case .use(let token) = action { return token }
        case let action as TokenSlot.StateMachine.RefreshResultAction:
            if case .succeedWaiters(let token) = action { return token }
        default: break
        }
        return nil
    }

    /// A machine holding a one-hour token issued at `t0`.
    func machineWithToken(_ value: String = "T1") throws -> (TokenSlot.StateMachine, IssuedToken) {
        var machine = TokenSlot.StateMachine()
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        let token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant(value), now: t0)))
        return (machine, token)
    }

    // MARK: First use and single flight

    @Test func fiftyCallersCauseOneRefreshAndAllGetItsToken() throws {
        var machine = TokenSlot.StateMachine()
        var refreshes: [RefreshTicket] = []
        var waits = 0
        for _ in 0..<50 {
            switch machine.tokenNeeded(now: t0) {
            case .startRefresh(let ticket): refreshes.append(ticket)
            case .wait: waits += 1
            case let other: Issue.record("unexpected \(other)")
            }
        }
        #expect(refreshes.count == 1 && waits == 49)
        let ticket = try #require(refreshes.first)
        let result = machine.refreshSucceeded(ticket, grant: Self.grant("T1"), now: at(1))
        let token = try #require(Self.token(result))
        #expect(token.secret.revealed() == "T1" && token.generation == ticket.generation)
        for _ in 0..<50 { #expect(machine.tokenNeeded(now: at(2)) == .use(token)) }
    }

    @Test func aTokenIsRefreshedOnceAtItsMarginAndUsedMeanwhile() throws {
        var (machine, token) = try machineWithToken()
        // One hour asked and granted: margin is 10% = 6 min, capped at 5 min: refreshed from 55 min, used
        // until 57.5 min.
        #expect(token.refreshAfter == at(3600 - 300) && token.usableUntil == at(3600 - 150))
        #expect(machine.tokenNeeded(now: at(3299)) == .use(token))
        guard case .useAndRefresh(token, let ticket) = machine.tokenNeeded(now: at(3300)) else {
            Issue.record("the first request after the refresh point starts the refresh")
            return
        }
        #expect(ticket.generation > token.generation)
        for _ in 0..<50 { #expect(machine.tokenNeeded(now: at(3301)) == .use(token)) }
        #expect(machine.tokenNeeded(now: at(3450)) == .wait)
        let fresh = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T2"), now: at(3451))))
        #expect(machine.tokenNeeded(now: at(3452)) == .use(fresh))
    }

    @Test func aFailedProactiveRefreshKeepsTheOldTokenInUseUntilItRunsOut() throws {
        var (machine, token) = try machineWithToken()
        guard case .useAndRefresh(_, let first) = machine.tokenNeeded(now: at(3300)) else {
            Issue.record("expected a proactive refresh")
            return
        }
        #expect(machine.refreshFailed(first, error: Self.outage, now: at(3300)) == .failWaiters(Self.outage))
        #expect(machine.tokenNeeded(now: at(3300) + .milliseconds(500)) == .use(token))
        guard case .useAndRefresh(token, let second) = machine.tokenNeeded(now: at(3301)) else {
            Issue.record("after the backoff the next request refreshes again, still using the old token")
            return
        }
        _ = machine.refreshFailed(second, error: Self.outage, now: at(3301))  // backoff 2 s
        #expect(machine.tokenNeeded(now: at(3302)) == .use(token))
        #expect(Self.ticket(machine.tokenNeeded(now: at(3450))) != nil)  // run out: everyone waits
    }

    @Test func rejectingTheTokenBeingReplacedMakesRequestsWaitWithoutAnotherRefresh() throws {
        var (machine, token) = try machineWithToken()
        guard case .useAndRefresh(_, let ticket) = machine.tokenNeeded(now: at(3300)) else {
            Issue.record("expected a proactive refresh")
            return
        }
        for _ in 0..<50 { #expect(machine.tokenRejected(token, sentAt: at(3301), now: at(3301)) == .wait) }
        #expect(machine.tokenNeeded(now: at(3301)) == .wait)
        token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T2"), now: at(3302))))
        #expect(machine.tokenNeeded(now: at(3303)) == .use(token))
    }

    @Test func aCredentialChangeDuringAProactiveRefreshDropsTheOldToken() throws {
        var (machine, token) = try machineWithToken()
        guard case .useAndRefresh(_, let stale) = machine.tokenNeeded(now: at(3300)) else {
            Issue.record("expected a proactive refresh")
            return
        }
        let current = try #require({ () -> RefreshTicket? in
            if case .startRefresh(let ticket) = machine.credentialChanged(now: at(3301)) { return ticket }
            return nil
        }())
        #expect(machine.tokenNeeded(now: at(3301)) == .wait)
        #expect(machine.refreshSucceeded(stale, grant: Self.grant("stale"), now: at(3302)) == .ignore)
        token = try #require(Self.token(machine.refreshSucceeded(current, grant: Self.grant("new"), now: at(3303))))
        #expect(token.secret.revealed() == "new")
    }

    @Test func aTokenWithoutExpiryIsUsedUntilRejected() throws {
        var machine = TokenSlot.StateMachine()
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        let token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T", lifetime: nil), now: t0)))
        #expect(token.usableUntil == nil)
        #expect(machine.tokenNeeded(now: at(10_000_000)) == .use(token))
    }

    // MARK: Expiry arithmetic

    @Test func expiryIsTheEarlierOfServerAndLocalLifetimeMinusMargin() throws {
        // The server says 10 min, 20 min were asked: 10 min wins, margin 60 s (10%).
        var machine = TokenSlot.StateMachine()
        var ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        var token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("A", server: at(600), lifetime: .seconds(1200)), now: t0)))
        #expect(token.refreshAfter == at(540) && token.usableUntil == at(570))

        // The server's clock runs ahead (its expiry looks 3 h away), 20 min were asked at the call's start (t=1000):
        // the local lifetime wins, counted from the start of the call, not its end (t=1010); margin 120 s.
        machine = TokenSlot.StateMachine()
        ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(1000))))
        token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("B", server: at(1000 + 10_800), lifetime: .seconds(1200)), now: at(1010))))
        #expect(token.refreshAfter == at(2200 - 119) && token.usableUntil == at(2200) - .milliseconds(59_500))
    }

    @Test func aServerExpiryAlreadyPastIsTakenForSkewAndIgnored() throws {
        var machine = TokenSlot.StateMachine()
        var ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(100))))
        var token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("A", server: at(50), lifetime: .seconds(600)), now: at(100))))
        #expect(token.refreshAfter == at(700 - 60) && token.usableUntil == at(700 - 30))
        #expect(machine.tokenNeeded(now: at(101)) == .use(token))
        // Without a requested lifetime such a token has no known expiry.
        machine = TokenSlot.StateMachine()
        ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(100))))
        token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("B", server: at(100), lifetime: nil), now: at(100))))
        #expect(token.usableUntil == nil)
    }

    @Test func marginRules() {
        let policy = TokenRefreshPolicy()
        #expect(policy.margin(forLifetime: .seconds(3600)) == .seconds(300))  // 360 s capped at 5 min
        #expect(policy.margin(forLifetime: .seconds(1200)) == .seconds(120))  // 10%
        #expect(policy.margin(forLifetime: .seconds(120)) == .seconds(30))  // 12 s raised to 30 s
        #expect(policy.margin(forLifetime: .seconds(40)) == .seconds(20))  // never more than half
        #expect(policy.margin(forLifetime: .zero) == .zero)
        #expect(policy.margin(forLifetime: .seconds(-5)) == .zero)
        let custom = TokenRefreshPolicy(marginPercent: 50, minimumMargin: .seconds(1), maximumMargin: .seconds(1000))
        #expect(custom.margin(forLifetime: .seconds(100)) == .seconds(50))
    }

    // MARK: Failures

    @Test func retryableFailureFailsWaitersThenFailsFastUntilBackoffEnds() throws {
        var machine = TokenSlot.StateMachine()
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        #expect(machine.tokenNeeded(now: t0) == .wait)
        #expect(machine.refreshFailed(ticket, error: Self.outage, now: at(2)) == .failWaiters(Self.outage))
        // First backoff: 1 s.
        #expect(machine.tokenNeeded(now: at(2) + .milliseconds(999)) == .fail(Self.outage))
        let retry = try #require(Self.ticket(machine.tokenNeeded(now: at(3))))
        #expect(retry.generation > ticket.generation)
        #expect(machine.tokenNeeded(now: at(3)) == .wait)
    }

    @Test func backoffGrowsWithEachFailureAndIsCapped() throws {
        var machine = TokenSlot.StateMachine()
        var now = t0
        let expected = [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) }
        for wait in expected {
            let ticket = try #require(Self.ticket(machine.tokenNeeded(now: now)))
            #expect(machine.refreshFailed(ticket, error: Self.outage, now: now) == .failWaiters(Self.outage))
            #expect(machine.tokenNeeded(now: now + wait - .milliseconds(1)) == .fail(Self.outage))
            now += wait
        }
        #expect(Self.ticket(machine.tokenNeeded(now: now)) != nil)
        let policy = TokenRefreshPolicy()
        #expect((1...9).map { policy.backoff(afterFailures: $0) } == expected)
        #expect(policy.backoff(afterFailures: 1_000) == .seconds(60))
        #expect(policy.backoff(afterFailures: 0) == .seconds(1))
    }

    @Test func successResetsTheBackoff() throws {
        var machine = TokenSlot.StateMachine()
        var ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        _ = machine.refreshFailed(ticket, error: Self.outage, now: t0)
        ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(1))))
        _ = machine.refreshFailed(ticket, error: Self.outage, now: at(1))  // second failure: 2 s
        #expect(machine.tokenNeeded(now: at(2)) == .fail(Self.outage))
        ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(3))))
        let token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T", lifetime: .seconds(60)), now: at(3))))
        // 60 s from the call's start at 3 s; margin 30 s (raised from 6 s, at most half).
        #expect(token.refreshAfter == at(33) && token.usableUntil == at(48))
        ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(48))))
        _ = machine.refreshFailed(ticket, error: Self.outage, now: at(48))  // first failure again: 1 s
        #expect(machine.tokenNeeded(now: at(48) + .milliseconds(999)) == .fail(Self.outage))
        #expect(Self.ticket(machine.tokenNeeded(now: at(49))) != nil)
    }

    @Test func terminalRejectionIsRememberedForItsWindowSoFiftyRequestsMakeOneCall() throws {
        var machine = TokenSlot.StateMachine()
        var calls = 0
        var failed = 0
        var ticket: RefreshTicket?
        for i in 0..<50 {
            switch machine.tokenNeeded(now: at(i)) {
            case .startRefresh(let started):
                calls += 1
                ticket = started
            case .wait: break
            case .fail(let error):
                #expect(error == Self.wrongPassword)
                failed += 1
            case .use, .useAndRefresh: Issue.record("no token was issued")
            }
            if i == 0, let ticket {
                #expect(machine.refreshFailed(ticket, error: Self.wrongPassword, now: at(0)) == .failWaiters(Self.wrongPassword))
            }
        }
        #expect(calls == 1 && failed == 49)
        #expect(machine.tokenNeeded(now: at(59)) == .fail(Self.wrongPassword))
        #expect(Self.ticket(machine.tokenNeeded(now: at(60))) != nil)
    }

    // MARK: Rejections

    @Test func fiftyRejectionsOfOneTokenCauseOneRefresh() throws {
        var (machine, old) = try machineWithToken()
        var tickets: [RefreshTicket] = []
        var waits = 0
        for _ in 0..<50 {
            switch machine.tokenRejected(old, sentAt: at(600), now: at(600)) {
            case .startRefresh(let ticket): tickets.append(ticket)
            case .wait: waits += 1
            case let other: Issue.record("unexpected \(other)")
            }
        }
        #expect(tickets.count == 1 && waits == 49)
        let ticket = try #require(tickets.first)
        let fresh = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T2"), now: at(601))))
        // Late rejections of the old token get the new one, with no refresh.
        for _ in 0..<50 { #expect(machine.tokenRejected(old, sentAt: at(602), now: at(602)) == .use(fresh)) }
        #expect(machine.tokenNeeded(now: at(603)) == .use(fresh))
    }

    @Test func aFreshTokenRejectedAgainFailsInsteadOfRefreshingInALoop() throws {
        var (machine, old) = try machineWithToken()
        let ticket = try #require(Self.ticket(machine.tokenRejected(old, sentAt: at(600), now: at(600))))
        let fresh = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T2"), now: at(601))))
        guard case .fail(let error) = machine.tokenRejected(fresh, sentAt: at(605), now: at(605)) else {
            Issue.record("a fresh token's rejection must fail")
            return
        }
        #expect(error.code == .credentialRejected && !error.isRetryable)
        #expect(machine.tokenNeeded(now: at(606)) == .fail(error))
        #expect(machine.tokenRejected(old, sentAt: at(607), now: at(607)) == .fail(error))
        #expect(Self.ticket(machine.tokenNeeded(now: at(605 + 60))) != nil)
    }

    @Test func aFirstTokenRejectedAtOnceIsRefreshedOnceAsARevocation() throws {
        var (machine, first) = try machineWithToken()
        // Rejected a second after issue (revoked): refreshed.
        let ticket = try #require(Self.ticket(machine.tokenRejected(first, sentAt: at(1), now: at(1))))
        let second = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T2"), now: at(2))))
        #expect(second.replacesRejected && !first.replacesRejected)
        // Its replacement rejected as fast: terminal.
        guard case .fail(let error) = machine.tokenRejected(second, sentAt: at(3), now: at(3)) else {
            Issue.record("a replacement rejected at once must fail")
            return
        }
        #expect(error.code == .credentialRejected)
    }

    @Test func aRejectionAfterTheFreshWindowRefreshes() throws {
        var (machine, token) = try machineWithToken()
        #expect(Self.ticket(machine.tokenRejected(token, sentAt: at(10), now: at(10))) != nil)
        // The rejected token is no longer handed out: everyone waits for the refresh.
        #expect(machine.tokenNeeded(now: at(11)) == .wait)
        #expect(machine.tokenRejected(token, sentAt: at(11), now: at(11)) == .wait)
    }

    // MARK: Expiry or refusal (tokens shorter than the fresh-token window, answers that come late)

    func at(ms milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// A machine whose one-hour first token was rejected at 1 s and replaced at once by a token that lives
    /// `lifetime`: the replacement (`replacesRejected`) is what the rules below judge.
    func machineWithReplacement(lifetime: Duration) throws -> (TokenSlot.StateMachine, IssuedToken) {
        var (machine, first) = try machineWithToken()
        let ticket = try #require(Self.ticket(machine.tokenRejected(first, sentAt: at(1), now: at(1))))
        let grant = Self.grant("T2", lifetime: lifetime)
        let replacement = try #require(Self.token(machine.refreshSucceeded(ticket, grant: grant, now: at(1))))
        #expect(replacement.replacesRejected)
        return (machine, replacement)
    }

    /// The defect of a 3 s token whose pages are held 2.5 s at the server: the replacement, sent 1 s after its
    /// issue, is rejected 2.5 s later, inside the 10 s fresh-token window. It ran out while it waited (the
    /// answer came after its refresh point), so it is refreshed, not taken for a refusal of every token.
    @Test func aShortLivedReplacementRejectedAsItRunsOutIsRefreshedNotRefused() throws {
        var (machine, replacement) = try machineWithReplacement(lifetime: .seconds(3))
        #expect(replacement.refreshAfter == at(ms: 2_500) && replacement.expiresAt == at(4))
        let action = machine.tokenRejected(replacement, sentAt: at(2), now: at(ms: 4_500))
        let ticket = try #require(Self.ticket(action), "an expiry, not a refusal: \(action)")
        let next = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T3", lifetime: .seconds(3)), now: at(ms: 4_500))))
        #expect(next.secret.revealed() == "T3" && next.replacesRejected)
        #expect(machine.tokenNeeded(now: at(5)) == .use(next))
    }

    /// The same short-lived replacement refused at once (answered long before its refresh point) is still a
    /// refusal: no third token call, `credential_rejected` for the terminal window.
    @Test func aShortLivedReplacementRefusedAtOnceIsStillRefused() throws {
        var (machine, replacement) = try machineWithReplacement(lifetime: .seconds(3))
        guard case .fail(let error) = machine.tokenRejected(replacement, sentAt: at(ms: 1_100), now: at(ms: 1_200)) else {
            Issue.record("a replacement refused at once must fail")
            return
        }
        #expect(error.code == .credentialRejected && !error.isRetryable)
        #expect(machine.tokenNeeded(now: at(2)) == .fail(error))
    }

    /// A one-hour replacement sent at once and refused 12 s later (the server answered slowly): the fresh-token
    /// window is measured to when the token was sent, so a late answer does not make a refusal look like an old
    /// token's. (Measured to the answer, as before, this refreshed a third time.)
    @Test func aReplacementRefusedOnASlowAnswerIsStillRefused() throws {
        var (machine, replacement) = try machineWithReplacement(lifetime: .seconds(3600))
        guard case .fail(let error) = machine.tokenRejected(replacement, sentAt: at(2), now: at(14)) else {
            Issue.record("sent 1 s after its issue and long before it was due: a refusal")
            return
        }
        #expect(error.code == .credentialRejected)
        // Sent after the window: an ordinary rejection (a revocation), refreshed.
        var (later, token) = try machineWithReplacement(lifetime: .seconds(3600))
        #expect(Self.ticket(later.tokenRejected(token, sentAt: at(12), now: at(13))) != nil)
    }

    /// 3 s tokens, pages held 2.5 s at the server. The first token was sent at 1 s and rejected at 3.5 s; the
    /// current one (issued at 1.5 s, alive until 4.5 s) would run out before the retry is answered, so the retry
    /// waits for a new token while requests without a wait go on with the current one. A rejection after a short
    /// wait takes the current token at once.
    @Test func theTokenForARetryOutlivesTheWaitOfTheRejectedRequest() throws {
        var machine = TokenSlot.StateMachine()
        let short = Duration.seconds(3)
        let firstTicket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        let first = try #require(Self.token(machine.refreshSucceeded(firstTicket, grant: Self.grant("T1", lifetime: short), now: t0)))
        guard case .useAndRefresh(_, let proactive) = machine.tokenNeeded(now: at(ms: 1_500)) else {
            Issue.record("expected a proactive refresh at 1.5 s")
            return
        }
        let current = try #require(Self.token(machine.refreshSucceeded(proactive, grant: Self.grant("T2", lifetime: short), now: at(ms: 1_500))))
        // Waited 0.2 s: the current token lives 2.8 s more, long enough.
        #expect(machine.tokenRejected(first, sentAt: at(ms: 1_400), now: at(ms: 1_600)) == .use(current))
        // Waited 2.5 s: the current token has 1 s left. A new one is fetched for the retry.
        let ticket = try #require(Self.ticket(machine.tokenRejected(first, sentAt: at(1), now: at(ms: 3_500))))
        #expect(machine.tokenNeeded(now: at(ms: 3_600)) == .use(current), "requests without a wait keep the current token")
        #expect(machine.tokenRejected(first, sentAt: at(1), now: at(ms: 3_600)) == .wait, "another long-waiting retry waits for the new one")
        let fresh = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("T3", lifetime: short), now: at(ms: 3_700))))
        #expect(fresh.outlives(.milliseconds(2_500), from: at(ms: 3_700)))
        #expect(!fresh.replacesRejected, "the rejected token was not the current one")
    }

    // MARK: Invalidation

    @Test func credentialChangeDropsTheToken() throws {
        var (machine, token) = try machineWithToken()
        #expect(machine.credentialChanged(now: at(5)) == .none)
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: at(6))))
        #expect(ticket.generation > token.generation + 1)
        // A rejection of the pre-change token while the new refresh runs just waits.
        #expect(machine.tokenRejected(token, sentAt: at(7), now: at(7)) == .wait)
        token = try #require(Self.token(machine.refreshSucceeded(ticket, grant: Self.grant("new"), now: at(8))))
        #expect(token.secret.revealed() == "new")
    }

    @Test func credentialChangeClearsARememberedFailure() throws {
        var machine = TokenSlot.StateMachine()
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        _ = machine.refreshFailed(ticket, error: Self.wrongPassword, now: t0)
        #expect(machine.tokenNeeded(now: at(1)) == .fail(Self.wrongPassword))
        #expect(machine.credentialChanged(now: at(2)) == .none)
        #expect(Self.ticket(machine.tokenNeeded(now: at(2))) != nil)
    }

    @Test func aStaleRefreshAfterInvalidationIsIgnoredAndWaitersGetTheNewOne() throws {
        var machine = TokenSlot.StateMachine()
        let stale = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        #expect(machine.tokenNeeded(now: t0) == .wait)
        guard case .startRefresh(let current) = machine.credentialChanged(now: at(1)) else {
            Issue.record("waiters need a new refresh")
            return
        }
        #expect(current.generation > stale.generation)
        #expect(machine.tokenNeeded(now: at(1)) == .wait)
        #expect(machine.refreshSucceeded(stale, grant: Self.grant("old-password-token"), now: at(2)) == .ignore)
        #expect(machine.refreshFailed(stale, error: Self.wrongPassword, now: at(2)) == .ignore)
        #expect(machine.tokenNeeded(now: at(2)) == .wait)
        let token = try #require(Self.token(machine.refreshSucceeded(current, grant: Self.grant("new"), now: at(3))))
        #expect(token.secret.revealed() == "new")
        #expect(machine.refreshSucceeded(current, grant: Self.grant("again"), now: at(4)) == .ignore)
        #expect(machine.tokenNeeded(now: at(4)) == .use(token))
    }

    // MARK: Secrets

    @Test func noDescriptionShowsTheToken() throws {
        var machine = TokenSlot.StateMachine()
        var texts: [String] = []
        func record(_ value: Any) {
            var dumped = ""
            dump(value, to: &dumped)
            texts += [String(describing: value), String(reflecting: value), dumped]
        }
        let ticket = try #require(Self.ticket(machine.tokenNeeded(now: t0)))
        let grant = Self.grant(Self.marker)
        record(grant)
        let result = machine.refreshSucceeded(ticket, grant: grant, now: t0)
        record(result)
        record(machine)
        let token = try #require(Self.token(result))
        record(token)
        record(machine.tokenNeeded(now: at(1)))
        record(machine.tokenRejected(token, sentAt: at(100), now: at(100)))
        record(machine)
        #expect(texts.count == 21)
        for text in texts { #expect(!text.contains(Self.marker), "\(text)") }
        #expect(token.secret.revealed() == Self.marker)
    }
}
