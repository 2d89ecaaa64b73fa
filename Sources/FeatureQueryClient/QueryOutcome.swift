public import Foundation

/// A job's terminal outcome as the worker published it: a result (a split one put back together), or the
/// worker's error (``error``) for a job it refused, failed, superseded, cancelled or let expire.
///
/// Errors of the worker are outcomes, not thrown: a caller that sent a job learns how it ended either way,
/// and ``superseded`` is a normal end for a task's older job. Only what stopped the client from learning the
/// outcome (a timeout, Kafka, shutdown, a job that fails the contract's checks) is thrown.
public struct QueryOutcome: Sendable {
    /// How the job ended.
    public enum Status: String, Sendable, Hashable {
        case succeeded, partial, failed, superseded, cancelled, rejected, expired
    }

    /// The job's requestId.
    public var requestId: String
    /// The job's taskId, as the worker read it.
    public var taskId: String?
    /// How the job ended.
    public var status: Status
    /// Per queried layer (per target for a catalog), in the order of the targets; empty for an error.
    public var layers: [LayerResult]
    /// The worker's error for every status but `succeeded` and `partial`.
    public var error: FeatureQueryError?
    /// The newer job that replaced this one (`superseded`).
    public var supersededBy: String?
    /// Which worker answered.
    public var worker: String?
    /// The outcome's messages as published, in part order: the raw JSON, for what the typed values leave out
    /// (GeoJSON features, catalog entries' details, `source`).
    public var messages: [Data]

    /// An outcome, for tests of code that handles outcomes.
    public init(
        requestId: String, taskId: String? = nil, status: Status, layers: [LayerResult] = [],
        error: FeatureQueryError? = nil, supersededBy: String? = nil, worker: String? = nil, messages: [Data] = []
    ) {
        self.requestId = requestId
        self.taskId = taskId
        self.status = status
        self.layers = layers
        self.error = error
        self.supersededBy = supersededBy
        self.worker = worker
        self.messages = messages
    }
}
