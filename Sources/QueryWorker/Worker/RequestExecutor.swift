import FeatureService
import FeatureQuerySupport
import RequestContract
import StoredResults

/// Runs one decoded request against the feature services and says how it ended: the step between the
/// contract (a ``QueryRequest``) and the messages published about it. No Kafka here, so it is tested against
/// the sample feature server alone.
///
/// It talks to the feature-service seam only (``FeatureServiceEngine``): which protocol a target speaks is the
/// engine's business, not the worker's.
///
/// Two steps, because they answer at different times: ``admit(_:)`` refuses a request whose targets the host
/// policy forbids before anything is sent (a `rejected` outcome), and ``execute(_:)`` runs an admitted one,
/// bounded by its result budget and by the calling task's cancellation.
struct RequestExecutor: Sendable {
    let engine: any FeatureServiceEngine
    let hostPolicy: HostPolicy
    /// Written into every result's `worker`.
    let workerID: String
    /// The most bytes one request's result may hold (``ResultBudget``); a larger result is cut and its
    /// layers marked incomplete, whatever the request's `maxFeatures` says.
    let maxResultTotalBytes: Int
    /// Milliseconds since the epoch; injected so tests control `finishedAt` and deadlines.
    let clock: @Sendable () -> Int64
    /// Each request's result store, when the worker has one (`resultStore`); `nil`: results are inline only.
    let stores: ResultStoreProvider?
    /// Hears of stored objects and store failures (the worker's metrics).
    let storeObserver: (@Sendable (ServiceLayerOutcome) -> Void)?
    let verdicts = HostVerdictCache()

    init(
        engine: any FeatureServiceEngine, hostPolicy: HostPolicy, workerID: String,
        maxResultTotalBytes: Int = WorkerSettings.Limits().maxResultTotalBytes, stores: ResultStoreProvider? = nil,
        storeObserver: (@Sendable (ServiceLayerOutcome) -> Void)? = nil, clock: @escaping @Sendable () -> Int64
    ) {
        self.engine = engine
        self.hostPolicy = hostPolicy
        self.workerID = workerID
        self.maxResultTotalBytes = maxResultTotalBytes
        self.stores = stores
        self.storeObserver = storeObserver
        self.clock = clock
    }

    /// Checks every target URL against the host policy, in the targets' order. A refused URL is the request's
    /// `rejected` error (`host_not_allowed` or `invalid_url`, `details.path` naming the target), returned
    /// before any HTTP request: the policy must hold even for the first metadata request.
    ///
    /// `delivery: store` on a worker without a store is refused here too (`store_not_configured`): before
    /// running, since running would only find out at the end that the result has nowhere to go.
    func admit(_ request: QueryRequest) -> ContractError? {
        if request.delivery.mode == .store, stores == nil { return .storeNotConfigured }
        for (index, target) in request.targets.enumerated() {
            if let error = verdicts.verdict(for: target.url, policy: hostPolicy) {
                return ContractError(
                    ContractError.Code(error.code.rawValue), "targets[\(index)].url: \(error.message)",
                    details: .object(["path": .string("targets[\(index)].url"), "url": .string(target.url)]))
            }
        }
        return nil
    }

    /// Runs an admitted request (call ``admit(_:)`` first): every layer of every target at once, in the
    /// calling task, with one ``ResultBudget`` of ``maxResultTotalBytes`` for the whole request.
    ///
    /// A request whose deadline has passed on arrival is `expired` without a query being sent. A deadline that
    /// passes while the request runs is the caller's to enforce by cancelling the calling task (the worker
    /// does, for all its runs, in one loop), which aborts the engine's transfers; the outcome is then
    /// `cancelled` (the caller knows why), as for any other cancellation.
    ///
    /// `progress` hears of the pages read when the request asked for progress; it is finished as soon as the
    /// engine has answered, before the result's `finishedAt` is taken, so no event comes after the outcome.
    ///
    /// A request with `delivery` `store` or `auto` on a worker with a store gets its own ``S3ResultStore`` on
    /// the budget. Once the engine has answered, whatever happened (cancellation included), every writer it left
    /// open is aborted, so no multipart upload outlives the run. Stored layers' objects were completed and their
    /// size checked inside `engine.query` (``StoredLayerWriter/finish()``): the outcome built here, and so any
    /// message or transaction publishing it (exactly-once mode included), only ever names a complete object.
    func execute(_ request: QueryRequest, progress: ProgressReporter? = nil) async -> ExecutionOutcome {
        defer { progress?.finish() }
        if Task.isCancelled { return .cancelled }
        if let deadline = request.deadline, clock() >= deadline { return .expired }
        let store = stores?.store(for: request)
        let budget = ResultBudget(limit: maxResultTotalBytes, progress: progress, store: store)
        let outcomes = await engine.query(request.serviceTargets, request.serviceQuery, budget: budget)
        if let store { await store.abortUnfinished() }
        progress?.finish()
        if Task.isCancelled { return .cancelled }
        if store != nil, let storeObserver {
            for layer in outcomes.joined() { storeObserver(layer) }
        }
        return outcome(of: request, layers: outcomes)
    }

    /// A result when any layer answered, else the request's `failed` error. Not inlined: its locals would
    /// otherwise sit in the calling task's frame (see ``WorkerCore/deliver(_:)``).
    @inline(never)
    private func outcome(of request: QueryRequest, layers outcomes: [[ServiceLayerOutcome]]) -> ExecutionOutcome {
        let layers = Array(outcomes.joined())
        let result = ResultMessage(
            requestId: request.requestId, taskId: request.taskId, layers: layers, receivedAt: request.receivedAt,
            finishedAt: clock(), worker: workerID)
        guard result.allLayersFailed else { return .result(result) }
        let failures = layers.compactMap { layer in layer.contractError.map { (url: layer.url, error: $0) } }
        return .failed(ContractError.allLayersFailed(failures))
    }
}
