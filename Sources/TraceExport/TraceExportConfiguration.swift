/// Where and how spans are exported. The batch settings are OpenTelemetry's batch span processor defaults
/// (`OTEL_BSP_*`), except the export timeout: short, so a collector that is down delays a shutdown by seconds.
package struct TraceExportConfiguration: Sendable {
    /// The OTLP/HTTP traces URL, with its path (`…/v1/traces`).
    package var endpoint: String
    package var resource: TraceResource
    /// How the tracer samples spans that have no local parent.
    package var sampler: HeadSampler
    /// The longest a span waits before it is sent, when no batch fills sooner.
    package var scheduleDelay: Duration = .seconds(5)
    /// Ended spans held at most; more are dropped (and counted) until an export makes room.
    package var maxQueueSize: Int = 2048
    /// Spans per export request; a full batch is sent at once.
    package var maxExportBatchSize: Int = 512
    package var exportTimeout: Duration = .seconds(2)

    package init(endpoint: String, resource: TraceResource, sampler: HeadSampler = HeadSampler(parentBased: true, ratio: 1)) {
        self.endpoint = endpoint
        self.resource = resource
        self.sampler = sampler
    }
}
