import EngineExecution
import Foundation

extension SettingsValidation {
    /// The OTLP/HTTP traces endpoint: `http` or `https` with a host. A URL without a path (or with `/`) gets
    /// `/v1/traces`, as collectors listen there and swift-otel uses a configured endpoint as it is.
    ///
    /// A build without the exporter (the default build; `swift build --traits OTLP` has it) refuses the setting
    /// rather than ignoring it: an operator who configures an endpoint expects spans there.
    static func otlpEndpoint(_ found: FoundSetting) throws(SettingsError) -> String {
        let text = try found.text()
        guard let url = TracedURL(text), url.scheme == "http" || url.scheme == "https" else {
            throw found.error("\(found.key) must be an http:// or https:// URL with a host, e.g. http://collector:4318")
        }
        #if !OTLP
            throw found.error(
                "this build of query-worker has no OTLP exporter; build it with `swift build --traits OTLP` (or unset \(found.key))")
        #else
            return withTracesPath(text)
        #endif
    }

    /// `endpoint` with `/v1/traces` when it names no path.
    static func withTracesPath(_ endpoint: String) -> String {
        guard let separator = endpoint.range(of: "://") else { return endpoint }
        let afterScheme = endpoint[separator.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return endpoint + "/v1/traces" }
        if afterScheme[slash...] == "/" { return String(endpoint[..<slash]) + "/v1/traces" }
        return endpoint
    }
}
