import EngineExecution
import Foundation

extension SettingsValidation {
    /// The OTLP/HTTP traces endpoint: `http` or `https` with a host. A URL without a path (or with `/`) gets
    /// `/v1/traces`, where collectors listen.
    static func otlpEndpoint(_ found: FoundSetting) throws(SettingsError) -> String {
        let text = try found.text()
        guard let url = TracedURL(text), url.scheme == "http" || url.scheme == "https" else {
            throw found.error("\(found.key) must be an http:// or https:// URL with a host, e.g. http://collector:4318")
        }
        return withTracesPath(text)
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
