import ArgumentParser
import SampleFeatureServer

/// `--query-option` and `--query-quirk`: the feature-table query knobs of the sample server, read by
/// ``SampleServerConfiguration/applyQuerySpecs(options:quirks:)`` so that tests and the command agree.
extension SampleFeatureServerCommand {
    /// The configuration with --query-option and --query-quirk applied.
    func queryConfigured(_ configuration: SampleServerConfiguration) throws -> SampleServerConfiguration {
        var configuration = configuration
        do {
            try configuration.applyQuerySpecs(options: queryOptions, quirks: queryQuirks)
        } catch {
            throw ValidationError("--query-option/--query-quirk: \(error.message)")
        }
        return configuration
    }
}
