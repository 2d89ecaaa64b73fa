import QueryWorker
import Testing

/// `otlpEndpoint` (`--otlp-endpoint`): an http(s) URL; `/v1/traces` added when the URL names no path.
@Suite("Settings: otlpEndpoint")
struct ConfigurationOTLPTests {
    @Test func notAnHTTPURLIsRefused() throws {
        for value in ["collector:4318", "grpc://collector:4317", "http://"] {
            #expect(throws: SettingsError.self, "\(value)") {
                _ = try WorkerSettings.load(environment: ["QUERY_WORKER_OTLP_ENDPOINT": value])
            }
        }
    }

    @Test func theTracesPathIsAddedWhenTheURLNamesNone() throws {
        let cases = [
            "http://collector:4318": "http://collector:4318/v1/traces",
            "https://collector:4318/": "https://collector:4318/v1/traces",
            "http://collector:4318/custom/traces": "http://collector:4318/custom/traces",
        ]
        for (given, expected) in cases {
            let loaded = try WorkerSettings.load(environment: ["QUERY_WORKER_OTLP_ENDPOINT": given])
            #expect(loaded.settings.otlpEndpoint == expected)
        }
    }

    @Test func unsetMeansNoExport() throws {
        #expect(try WorkerSettings.load(environment: [:]).settings.otlpEndpoint == nil)
    }
}
