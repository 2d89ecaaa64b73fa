import EngineExecution
import Foundation
import Logging
import QueryWorker
import ServiceLifecycle
import TraceExport
import Tracing

/// Span export over OTLP/HTTP, when ``WorkerSettings/otlpEndpoint`` is set: the worker's own tracer
/// (``TraceExport/BatchingTracer``) and exporter (``TraceExport/SpanExportService``), in every build.
///
/// The service's name comes from `OTEL_SERVICE_NAME` (default `feature-query-worker`), the sampler from
/// `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG` (``OTLPSampler``): the worker decides before it asks for a
/// request's span (``TraceExport/HeadSampler``, so a dropped request costs no span), and the tracer records
/// what it is then asked for (``TraceExport/HeadSampler/tracerSampler(given:)``). Without an endpoint no tracer is bootstrapped: the worker still
/// propagates W3C trace context on its own (see the QueryWorker module's `WorkerTracing`).
enum OTLPExport {
    static let defaultServiceName = "feature-query-worker"

    /// Bootstraps the tracer and returns its exporter, to run first in the worker's group (it then stops last
    /// and sends every span); nil when no endpoint is configured.
    static func start(_ settings: WorkerSettings, logger: Logger) throws -> (any Service)? {
        guard let endpoint = settings.otlpEndpoint else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let serviceName = environment["OTEL_SERVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultServiceName
        let sampler = try OTLPSampler.headSampler(environment)
        let configuration = TraceExportConfiguration(
            endpoint: endpoint,
            resource: TraceResource(serviceName: serviceName, attributes: ["service.instance.id": settings.workerID]),
            sampler: HeadSampler.tracerSampler(given: sampler))
        let service = try SpanExportService(configuration: configuration, logger: logger)
        if let sampler { HeadSampler.bootstrap(sampler) }
        InstalledTracer.bootstrap(service.tracer)
        logger.info(
            "exporting spans over OTLP/HTTP",
            metadata: [
                "otlpEndpoint": "\(TracedURL.withoutQuery(endpoint))", "serviceName": "\(serviceName)",
                "sampler": .string(environment[OTLPSampler.samplerVariable] ?? "parentbased_always_on"),
            ])
        return service
    }
}
