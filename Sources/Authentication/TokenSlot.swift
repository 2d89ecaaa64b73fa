import Credentials

/// One credential's token for one audience, as ``CredentialAuthenticator`` keeps it: the state machine,
/// the requests waiting for its token call, and how each token it issued must travel.
struct TokenSlot {
    struct Key: Hashable {
        var credential: String
        /// ``TokenAudience/key``: a server root, or the token endpoint.
        var audience: String
    }

    /// A parked request, resumed with the token or the failure of the call it waits for.
    typealias Waiter = CheckedContinuation<GrantedToken, any Error>

    /// The credential as it was when the slot was made: a reload that changes it drops the slot.
    var credential: Credential
    var audience: TokenAudience
    var machine: StateMachine
    var waiters: [UInt64: Waiter] = [:]
    /// How the tokens of recent generations travel (referer, https only); a request may still hold an older one.
    private var presentations: [UInt64: Presentation] = [:]

    init(credential: Credential, audience: TokenAudience, policy: TokenRefreshPolicy) {
        self.credential = credential
        self.audience = audience
        self.machine = StateMachine(policy: policy)
    }

    struct Presentation: Hashable {
        var referer: String?
        var requiresTLS: Bool
    }

    func presentation(of token: IssuedToken) -> Presentation {
        presentations[token.generation] ?? Presentation(referer: nil, requiresTLS: false)
    }

    /// Remembers how the token of `generation` travels, forgetting all but the newest few.
    mutating func remember(_ grant: IssuedGrant, generation: UInt64) {
        presentations[generation] = Presentation(referer: grant.referer, requiresTLS: grant.requiresTLS)
        if presentations.count > 4, let oldest = presentations.keys.min() { presentations[oldest] = nil }
    }

    /// Takes every parked request out of the slot.
    mutating func takeWaiters() -> [Waiter] {
        defer { waiters = [:] }
        return Array(waiters.values)
    }
}

/// A token and how it travels: what a waiting request is resumed with.
struct GrantedToken: Sendable {
    var token: IssuedToken
    var referer: String?
    var requiresTLS: Bool

    init(_ token: IssuedToken, _ presentation: TokenSlot.Presentation) {
        self.token = token
        self.referer = presentation.referer
        self.requiresTLS = presentation.requiresTLS
    }
}
