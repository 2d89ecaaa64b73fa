import Synchronization

/// The host policy's verdicts on target URLs seen recently, so a busy worker parses each URL once, not once
/// per request.
///
/// Requests name the same few services over and over, and the textual check is pure (the policy never
/// changes while the worker runs; addresses are checked again at connect time by the connection policy), so
/// a cached verdict is the verdict. The cache holds at most `capacity` URLs and starts over when full: URLs
/// come from messages, so an unbounded cache would be a memory leak anyone could drive.
final class HostVerdictCache: Sendable {
    private let entries = Mutex<[String: HostPolicyError?]>([:])
    let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The policy's verdict on `url`: nil when allowed, else why not.
    func verdict(for url: String, policy: HostPolicy) -> HostPolicyError? {
        if let cached = entries.withLock({ $0[url] }) { return cached }
        let verdict: HostPolicyError?
        do throws(HostPolicyError) {
            try policy.check(url: url)
            verdict = nil
        } catch {
            verdict = error
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[url] = verdict
        }
        return verdict
    }

    var count: Int { entries.withLock { $0.count } }
}
