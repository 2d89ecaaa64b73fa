/// How a request ended. Every request the worker accepts gets exactly one of these, published once.
///
/// Four come from running the query (`succeeded`, `partial`, `rejected`, `failed`); three are decided by
/// coordination without waiting for the query (`superseded`, `cancelled`, `expired`): ``TaskRegistry``
/// hands those out at the moment it cancels a run, which is what keeps them from racing the run's own result.
enum TerminalStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every target answered completely.
    case succeeded
    /// Some targets answered, some failed: the selection is published, with the failures listed.
    case partial
    /// The request itself is wrong (validation, unknown layer, forbidden target): retrying will not help.
    case rejected
    /// The query could not be completed (service errors, network, limits): retrying may help.
    case failed
    /// A newer request for the same task replaced this one (`supersededBy` names it).
    case superseded
    /// A cancel message, shutdown or partition revocation stopped it (the answer carries a ``CancelReason``).
    case cancelled
    /// Its deadline passed, on arrival or while it ran.
    case expired

    /// Where the outcome is published: a selection goes to the result topic, anything else to the error
    /// topic, so that a consumer of results never has to filter out non-results.
    var topic: OutcomeTopic {
        switch self {
        case .succeeded, .partial: .result
        case .rejected, .failed, .superseded, .cancelled, .expired: .error
        }
    }

    /// Whether the status is decided by coordination (the query's own result is not awaited).
    var isDecidedByCoordination: Bool {
        switch self {
        case .superseded, .cancelled, .expired: true
        case .succeeded, .partial, .rejected, .failed: false
        }
    }

    var description: String { rawValue }
}

/// The two response topics.
enum OutcomeTopic: String, Sendable, Hashable, CaseIterable {
    case result
    case error
}

/// Why a request was ``TerminalStatus/cancelled``: published as the outcome's reason code.
enum CancelReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A `{taskId, cancel: true}` message named the request's task.
    case requested = "cancel_requested"
    /// The worker is shutting down.
    case shutdown
    /// The request's partition was taken from this worker in a rebalance.
    case partitionRevoked = "partition_revoked"

    /// Whether the request's message may be read again, by this partition's next owner, if its offset is not
    /// committed before the partition is given up (shutdown and revocation).
    ///
    /// For these the worker has two consistent choices: publish the `cancelled` answer *and* commit the
    /// message's offset before letting the partition go (the client sees `cancelled` and may resend), or
    /// publish nothing and commit nothing (the next owner runs the request and publishes the one outcome).
    /// Publishing without committing would give the request two terminal outcomes.
    var mayBeRedelivered: Bool {
        switch self {
        case .requested: false
        case .shutdown, .partitionRevoked: true
        }
    }

    var description: String { rawValue }
}
