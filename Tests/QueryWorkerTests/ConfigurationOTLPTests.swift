import QueryWorker
import Testing

/// `otlpEndpoint` (`--otlp-endpoint`): an http(s) URL; refused, naming the trait, by a build without the OTLP
/// exporter; `/v1/traces` added when the URL names no path.
@Suite("Settings: otlpEndpoint")
struct ConfigurationOTLPTests {
    static let builtWithOTLP: Bool = {
        #if OTLP
            true
        #else
            false
        #endif
    }()

    @Test func notAnHTTPURLIsRefused() throws {
        for value in ["collector:4318", "grpc://collector:4317", "http://"] {
            #expect(throws: SettingsError.self, "\(value)") {
                _ = try WorkerSettings.load(environment: ["QUERY_WORKER_OTLP_ENDPOINT": value])
            }
        }
    }

    @Test(.disabled(if: builtWithOTLP, "this build has the exporter"))
    func aBuildWithoutTheExporterRefusesTheSettingNamingTheTrait() throws {
        #expect {
            _ = try WorkerSettings.load(environment: ["QUERY_WORKER_OTLP_ENDPOINT": "http://collector:4318"])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "otlpEndpoint" && error.message.contains("--traits OTLP")
                && error.description.contains("QUERY_WORKER_OTLP_ENDPOINT")
        }
    }

    @Test(.enabled(if: builtWithOTLP, "built without --traits OTLP"))
    func theTracesPathIsAddedWhenTheURLNamesNone() throws {
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
