import Foundation

/// Gathers outcome messages into whole outcomes, as the contract asks of a consumer: results grouped by
/// `requestId` and `finishedAt` (so parts of a re-run after a crash never mix with the first run's), a part
/// already held ignored, an outcome handed out once however often it is delivered.
///
/// Pure state, no Kafka: the readers feed it each message's value and `request-id` header.
package struct OutcomeCollector {
    /// A finished outcome: every message of it, in part order, and the decoded whole.
    package struct Completed: Sendable {
        package var outcome: Outcome
        package var parts: [[UInt8]]
    }

    /// The request ids to collect; `nil` collects every outcome that names its request.
    package let wanted: Set<String>?
    private var pending: [GroupKey: [Int: [UInt8]]] = [:]
    package private(set) var delivered: Set<String> = []

    private struct GroupKey: Hashable {
        var requestId: String
        var finishedAt: String
    }

    /// Only what a message needs to be routed: decoded before the whole outcome.
    private struct Envelope: Decodable {
        var requestId: String?
        var status: String
        var part: Int?
        var parts: Int?
        var finishedAt: String?
    }

    package init(wanted: Set<String>?) {
        self.wanted = wanted
    }

    /// Whether a message with this `request-id` header can be skipped without parsing its value: another
    /// request's outcome (the topics hold everyone's), or one already handed out.
    package func skips(requestIdHeader: String?) -> Bool {
        guard let id = requestIdHeader else { return false }
        if let wanted, !wanted.contains(id) { return true }
        return delivered.contains(id)
    }

    /// Takes one message's value; returns the outcome it completes, if any. Values that are not outcome
    /// JSON are skipped (the topics are shared; one bad producer must not stop a reader).
    package mutating func add(_ value: [UInt8]) throws -> Completed? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(value)),
            let requestId = envelope.requestId, !delivered.contains(requestId)
        else { return nil }
        if let wanted, !wanted.contains(requestId) { return nil }
        let total = max(1, envelope.parts ?? 1)
        guard total > 1 else { return try complete(requestId, parts: [value]) }
        let key = GroupKey(requestId: requestId, finishedAt: envelope.finishedAt ?? "")
        let part = envelope.part ?? 1
        guard (1...total).contains(part) else { return nil }
        pending[key, default: [:]][part] = pending[key]?[part] ?? value
        guard let held = pending[key], held.count == total else { return nil }
        let ordered = (1...total).compactMap { held[$0] }
        pending[key] = nil
        return try complete(requestId, parts: ordered)
    }

    /// Drops what is held for `requestId`, delivered or not: for a long-lived reader (the client library),
    /// which keeps its own account of the requests it still waits for, so the collector does not grow with
    /// every outcome it ever delivered.
    package mutating func forget(_ requestId: String) {
        delivered.remove(requestId)
        pending = pending.filter { $0.key.requestId != requestId }
    }

    private mutating func complete(_ requestId: String, parts: [[UInt8]]) throws -> Completed {
        delivered.insert(requestId)
        pending = pending.filter { $0.key.requestId != requestId }
        return Completed(outcome: try Outcome(parts: parts), parts: parts)
    }
}
