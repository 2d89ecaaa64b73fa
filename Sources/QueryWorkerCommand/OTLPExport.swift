import EngineExecution
import Foundation
import Logging
import QueryWorker
import ServiceLifecycle

#if OTLP
    import OTel
#endif

/// Span export over OTLP/HTTP with swift-otel: only in a build with our package trait `OTLP`
/// (`swift build --traits OTLP`), and only when ``WorkerSettings/otlpEndpoint`` is set. Without the trait the
/// setting is refused when the settings load (a settings error naming the trait), so this never silently
/// drops spans an operator asked for.
///
/// swift-otel is told to trace only: its logs and metrics are off (it would otherwise bootstrap swift-log and
/// swift-metrics, which the worker does itself), and its configuration comes from here, not from `OTEL_*`
/// variables (except `OTEL_SERVICE_NAME` and the sampler's `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG`,
/// read here into the worker's own sampler: ``OTLPSampler``, ``QueryWorker/HeadSampler``). Without an endpoint no tracer is bootstrapped: the
/// worker still propagates W3C trace context on its own (see the QueryWorker module's `WorkerTracing`).
enum OTLPExport {
    static let defaultServiceName = "feature-query-worker"
    /// The exporter's timeout per export: short, so that a collector that is down delays shutdown by
    /// seconds, not by swift-otel's default 10 s (the shutdown budget bounds it anyway).
    static let exportTimeout = Duration.seconds(2)

    /// Bootstraps the tracer and returns its service, to run first in the worker's group (it then stops last and
    /// flushes every span); nil when no endpoint is configured.
    static func start(_ settings: WorkerSettings, logger: Logger) throws -> (any Service)? {
        #if OTLP
            guard let endpoint = settings.otlpEndpoint else { return nil }
            let environment = ProcessInfo.processInfo.environment
            var configuration = OTel.Configuration.default
            configuration.serviceName = environment["OTEL_SERVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultServiceName
            configuration.resourceAttributes = ["service.instance.id": settings.workerID]
            configuration.logs.enabled = false
            configuration.metrics.enabled = false
            configuration.traces.exporter = .otlp
            configuration.traces.otlpExporter.endpoint = endpoint
            configuration.traces.otlpExporter.protocol = .httpProtobuf
            configuration.traces.otlpExporter.timeout = exportTimeout
            // The sampling is the worker's (HeadSampler): swift-otel records every span it is given.
            if let sampler = try OTLPSampler.headSampler(environment) {
                configuration.traces.sampler = .alwaysOn
                HeadSampler.bootstrap(sampler)
            }
            configuration.propagators = [.traceContext]
            configuration.diagnosticLogger = .custom(logger)
            configuration.diagnosticLogLevel = .warning
            let service = try OTel.bootstrap(configuration: configuration, environment: [:])
            logger.info(
                "exporting spans over OTLP/HTTP",
                metadata: [
                    "otlpEndpoint": "\(TracedURL.withoutQuery(endpoint))", "serviceName": "\(configuration.serviceName)",
                    "sampler": .string(environment[OTLPSampler.samplerVariable] ?? "parentbased_always_on"),
                ])
            return service
        #else
            return nil
        #endif
    }
}
