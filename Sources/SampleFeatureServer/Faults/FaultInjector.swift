import FeatureQuerySupport
import Synchronization

/// What the fault rules decided for one request.
struct FaultDecision: Sendable {
    var latencyMilliseconds = 0
    /// The fault that replaces or cuts the response, if any (the first failure rule that fired).
    var failure: FaultRule.Kind?
    /// The most features a query page may hold, if a short-pages rule fired.
    var shortPageCap: Int?
    /// Every fault that took effect, for statistics.
    var injected: [FaultKind] = []
}

/// The fault rules of a running server and their counters, under one lock: deciding for a request is a
/// pure step of the state (which occurrence this is, the next random draw); the caller sleeps, fails or
/// trims after the lock is released. Rules can be replaced at any time; replacing restarts their counts.
final class FaultInjector: Sendable {
    private struct RuleState {
        var rule: FaultRule
        /// Requests the rule applied to so far.
        var seen = 0
        var random: SplitMix64

        init(_ rule: FaultRule) {
            self.rule = rule
            if case .probability(_, let seed) = rule.trigger {
                random = SplitMix64(seed: seed)
            } else {
                random = SplitMix64(seed: 0)
            }
        }

        /// Counts the request and says whether the rule fires on it.
        mutating func fires() -> Bool {
            let occurrence = seen
            seen += 1
            switch rule.trigger {
            case .always: return true
            case .window(let skip, let count):
                guard occurrence >= skip else { return false }
                guard let count else { return true }
                return occurrence < skip + count
            case .probability(let probability, _): return random.unit() < probability
            }
        }
    }

    private let state: Mutex<[RuleState]>

    init(_ rules: [FaultRule]) {
        state = Mutex(rules.map(RuleState.init))
    }

    var rules: [FaultRule] { state.withLock { $0.map(\.rule) } }

    func set(_ rules: [FaultRule]) {
        state.withLock { $0 = rules.map(RuleState.init) }
    }

    func add(_ rule: FaultRule) {
        state.withLock { $0.append(RuleState(rule)) }
    }

    func decide(path: String) -> FaultDecision {
        let lowercased = path.lowercased()
        return state.withLock { rules in
            var decision = FaultDecision()
            for position in rules.indices where rules[position].rule.applies(toLowercasedPath: lowercased) {
                guard rules[position].fires() else { continue }
                let kind = rules[position].rule.kind
                switch kind {
                case .latency(let milliseconds):
                    let (sum, overflow) = decision.latencyMilliseconds.addingReportingOverflow(max(0, milliseconds))
                    decision.latencyMilliseconds = overflow ? Int.max : sum
                    decision.injected.append(.latency)
                case .shortPages(let maximum):
                    decision.shortPageCap = min(decision.shortPageCap ?? maximum, maximum)
                    decision.injected.append(.shortPages)
                default:
                    guard decision.failure == nil else { continue }
                    decision.failure = kind
                    decision.injected.append(kind.name)
                }
            }
            return decision
        }
    }
}
