import QueryWorker
import TraceExport

/// OpenTelemetry's standard sampler variables, `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, for the
/// OTLP export: exporting every span costs about as much CPU again as the worker's own work (docs/performance,
/// "Operations cost"), so a busy worker samples, usually `parentbased_traceidratio` with a ratio. Unset, every
/// span is sampled (OpenTelemetry's default, `parentbased_always_on`). A value the worker cannot use stops it at
/// start with a settings error, never a silent default.
///
/// The variables configure the worker's ``HeadSampler`` (a request it does not sample never asks the tracer for
/// a span) and the tracer's own sampling of spans outside a request.
enum OTLPSampler {
    static let samplerVariable = "OTEL_TRACES_SAMPLER"
    static let argumentVariable = "OTEL_TRACES_SAMPLER_ARG"

    /// The sampler the variables name, nil when unset.
    static func headSampler(_ environment: [String: String]) throws(SettingsError) -> HeadSampler? {
        guard let name = environment[samplerVariable], !name.isEmpty else { return nil }
        switch name {
        case "always_on": return HeadSampler(parentBased: false, ratio: 1)
        case "always_off": return HeadSampler(parentBased: false, ratio: 0)
        case "parentbased_always_on": return HeadSampler(parentBased: true, ratio: 1)
        case "parentbased_always_off": return HeadSampler(parentBased: true, ratio: 0)
        case "traceidratio": return HeadSampler(parentBased: false, ratio: try ratio(environment))
        case "parentbased_traceidratio": return HeadSampler(parentBased: true, ratio: try ratio(environment))
        default:
            throw SettingsError(
                code: .invalidValue, key: samplerVariable, origin: .environment(samplerVariable), value: name,
                message: "the sampler must be always_on, always_off, traceidratio, parentbased_always_on, "
                    + "parentbased_always_off or parentbased_traceidratio")
        }
    }

    /// `OTEL_TRACES_SAMPLER_ARG` as a ratio from 0 to 1 (1 when unset, as OpenTelemetry specifies).
    private static func ratio(_ environment: [String: String]) throws(SettingsError) -> Double {
        guard let text = environment[argumentVariable], !text.isEmpty else { return 1 }
        guard let ratio = Double(text), ratio >= 0, ratio <= 1 else {
            throw SettingsError(
                code: .invalidValue, key: argumentVariable, origin: .environment(argumentVariable), value: text,
                message: "the sampling ratio must be a number from 0 to 1")
        }
        return ratio
    }
}
