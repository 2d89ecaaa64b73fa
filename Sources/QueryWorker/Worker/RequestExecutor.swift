public import ArcGISEngine

/// Runs one decoded request against the feature services and says how it ended: the step between the
/// contract (a ``QueryRequest``) and the messages published about it. No Kafka here, so it is tested against
/// the sample feature server alone.
///
/// Two steps, because they answer at different times: ``admit(_:)`` refuses a request whose targets the host
/// policy forbids before anything is sent (a `rejected` outcome), and ``execute(_:)`` runs an admitted one,
/// bounded by its deadline and by the calling task's cancellation.
public struct RequestExecutor: Sendable {
    public let engine: ArcGISEngine
    public let hostPolicy: HostPolicy
    /// Written into every result's `worker`.
    public let workerID: String
    /// Milliseconds since the epoch; injected so tests control `finishedAt` and deadlines.
    let clock: @Sendable () -> Int64
    let verdicts = HostVerdictCache()

    public init(engine: ArcGISEngine, hostPolicy: HostPolicy, workerID: String, clock: @escaping @Sendable () -> Int64) {
        self.engine = engine
        self.hostPolicy = hostPolicy
        self.workerID = workerID
        self.clock = clock
    }

    /// Checks every target URL against the host policy, in the targets' order. A refused URL is the request's
    /// `rejected` error (`host_not_allowed` or `invalid_url`, `details.path` naming the target), returned
    /// before any HTTP request: the policy must hold even for the first metadata request.
    public func admit(_ request: QueryRequest) -> ContractError? {
        for (index, target) in request.targets.enumerated() {
            if let error = verdicts.verdict(for: target.url, policy: hostPolicy) {
                return ContractError(
                    ContractError.Code(error.code.rawValue), "targets[\(index)].url: \(error.message)",
                    details: .object(["path": .string("targets[\(index)].url"), "url": .string(target.url)]))
            }
        }
        return nil
    }

    /// Runs an admitted request (call ``admit(_:)`` first): every layer of every target at once through the
    /// engine.
    ///
    /// The engine runs in a child task raced against a sleep until the deadline, so that a deadline ends the
    /// run *and* aborts its transfers (cancelling the child cancels them), instead of leaving them to finish
    /// for nobody. The group waits for the cancelled engine to unwind before returning, so no transfer
    /// outlives the call. Cancellation of the calling task wins over everything else: the engine's layers
    /// then all carry `cancelled` errors, which are no outcome of the request's own.
    ///
    /// With `racingDeadline` false the deadline is checked on arrival only, and the caller ends a run whose
    /// deadline passes by cancelling it (the worker does, for all its runs, in one loop).
    public func execute(_ request: QueryRequest, racingDeadline: Bool = true) async -> ExecutionOutcome {
        if Task.isCancelled { return .cancelled }
        if let deadline = request.deadline, clock() >= deadline { return .expired }
        let targets = request.arcGISTargets
        let query = request.query.featureQuery
        guard racingDeadline, let deadline = request.deadline else {
            // No deadline, nothing to race: the engine runs in this task (no child task per request).
            let outcomes = await engine.query(targets, query)
            if Task.isCancelled { return .cancelled }
            return outcome(of: request, layers: outcomes.map { LayerResult($0, kind: request.query.result) })
        }
        let outcomes: [LayerOutcome]? = await withTaskGroup(of: Race.self) { group in
            group.addTask { .finished(await engine.query(targets, query)) }
            group.addTask { await sleep(until: deadline) ? .deadlinePassed : .interrupted }
            let first = await group.next()
            group.cancelAll()
            if case .finished(let outcomes) = first { return outcomes }
            return nil
        }
        if Task.isCancelled { return .cancelled }
        guard let outcomes else { return .expired }
        return outcome(of: request, layers: outcomes.map { LayerResult($0, kind: request.query.result) })
    }

    /// A result when any layer answered, else the request's `failed` error.
    private func outcome(of request: QueryRequest, layers: [LayerResult]) -> ExecutionOutcome {
        let result = ResultMessage(
            requestId: request.requestId, taskId: request.taskId, layers: layers, receivedAt: request.receivedAt,
            finishedAt: clock(), worker: workerID)
        guard result.allLayersFailed else { return .result(result) }
        let failures = layers.compactMap { layer -> (url: String, error: ContractError)? in
            if case .failed(let error) = layer.outcome { return (layer.url, error) }
            return nil
        }
        return .failed(ContractError.allLayersFailed(failures))
    }

    /// Sleeps until `clock()` reaches `deadline`; false when the sleep was cancelled first. Sleeps at most a
    /// minute at a time and reads the clock again: a deadline from a message may be years away, and the
    /// deadline is wall-clock time while `Task.sleep` measures elapsed time.
    private func sleep(until deadline: Int64) async -> Bool {
        while true {
            let remaining = deadline &- clock()
            if remaining <= 0 { return true }
            do {
                try await Task.sleep(for: .milliseconds(min(remaining, 60_000)))
            } catch {
                return false
            }
        }
    }

    /// What finished first in ``execute(_:)``'s race.
    private enum Race: Sendable {
        case finished([LayerOutcome])
        case deadlinePassed
        /// The deadline's sleep was cancelled: the calling task was (the race never cancels it otherwise first).
        case interrupted
    }
}
