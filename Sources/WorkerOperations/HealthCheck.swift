import FeatureQuerySupport
package import QueryWorker

/// The answers of `/health/live` and `/health/ready`, from a status snapshot: an HTTP status and a small JSON
/// body saying why, which a person reading a probe failure (`kubectl describe pod`) understands without logs.
package struct HealthCheck: Sendable, Hashable {
    /// 200 or 503.
    package var statusCode: Int
    /// `{"status":"ok"}`, or `{"status":"unavailable","reason":"..."}`, with the worker's phase.
    package var body: String

    /// Live: the message loop runs (or drains). A worker that cannot reach Kafka stays live: restarting it
    /// would not bring the cluster back.
    package static func live(_ status: WorkerStatus) -> HealthCheck {
        status.isLive ? ok(status) : unavailable(status, reason: "the worker is \(status.phase.rawValue)")
    }

    /// Ready: running, in its consumer group, and able to deliver outcomes.
    package static func ready(_ status: WorkerStatus) -> HealthCheck {
        if let reason = status.notReadyReason { return unavailable(status, reason: reason) }
        return ok(status)
    }

    private static func ok(_ status: WorkerStatus) -> HealthCheck {
        HealthCheck(statusCode: 200, body: #"{"status":"ok","phase":"\#(status.phase.rawValue)"}"# + "\n")
    }

    private static func unavailable(_ status: WorkerStatus, reason: String) -> HealthCheck {
        HealthCheck(
            statusCode: 503,
            body: #"{"status":"unavailable","phase":"\#(status.phase.rawValue)","reason":\#(JSONString.quoted(reason))}"# + "\n")
    }
}
