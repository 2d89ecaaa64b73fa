import CurlHTTP
import Foundation
import Logging
import QueryLanguage
@testable import QueryWorker
import Testing

@Suite("Settings: what the worker builds from them")
struct ConfigurationWiringTests {
    @Test("host policy, named-query catalog and HTTP client configuration come from the settings")
    func wiring() throws {
        let settings = try WorkerSettings.load(environment: [
            "QUERY_WORKER_ALLOWED_HOSTS": "services.arcgis.com", "QUERY_WORKER_ALLOW_FREE_WHERE": "false",
            "QUERY_WORKER_HTTP_TIMEOUT": "20s", "QUERY_WORKER_HTTP_CONNECT_TIMEOUT": "3s",
            "QUERY_WORKER_MAX_RESULT_TOTAL_BYTES": "16MiB",
        ]).settings
        #expect(throws: Never.self) { try settings.hostPolicy().check(url: "https://services.arcgis.com/x") }
        let catalog = try settings.namedQueryCatalog()
        #expect(catalog.names.count == 7 && catalog.allowFreeClauses == false)
        #expect(throws: QueryLanguageError.self) { try catalog.resolve(.free("1 = 1")) }
        let http = try settings.httpClientConfiguration()
        #expect(http.connectTimeout == .seconds(3) && http.timeout == .seconds(20))
        #expect(http.maxResponseSize == 16 << 20, "one response is capped at the result budget")
        let policy = try #require(http.connectionPolicy)
        #expect(policy.allows(HTTPConnectionAttempt(host: "services.arcgis.com", address: "52.1.2.3", port: 443)))
        #expect(!policy.allows(HTTPConnectionAttempt(host: "services.arcgis.com", address: "10.0.0.1", port: 443)))
    }

    @Test("a connect timeout longer than the exchange timeout is cut to it when left at its default")
    func connectTimeoutClamp() throws {
        let settings = try WorkerSettings.load(environment: ["QUERY_WORKER_HTTP_TIMEOUT": "4s"]).settings
        #expect(settings.timeouts.httpConnect == .seconds(4))
    }

    @Test("message.max.bytes below a result part is refused; enough is accepted")
    func messageSize() throws {
        #expect {
            _ = try WorkerSettings.load(environment: ["QUERY_WORKER_KAFKA_MESSAGE_MAX_BYTES": "1000000"])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.code == .conflict && error.key == "kafka.message.max.bytes" && error.message.contains("maxResultBytes (1048576)")
        }
        let settings = try WorkerSettings.load(environment: ["QUERY_WORKER_KAFKA_MESSAGE_MAX_BYTES": "2000000"]).settings
        #expect(settings.kafkaProperties["message.max.bytes"] == "2000000")
    }

    @Test("the start-up metadata shows the settings and hides secrets")
    func logMetadata() throws {
        let settings = try WorkerSettings.load(environment: [
            "QUERY_WORKER_KAFKA_SASL_PASSWORD": "hunter2", "QUERY_WORKER_KAFKA_SECURITY_PROTOCOL": "SASL_SSL",
        ]).settings
        let metadata = settings.logMetadata
        #expect(metadata["kafka"] == .dictionary(["sasl.password": "<redacted>", "security.protocol": "SASL_SSL"]))
        #expect(metadata["groupId"] == "feature-query-workers")
        #expect(!"\(metadata)".contains("hunter2"))
    }

    @Test("a map key that is not an object, and a near miss under a group, are explained")
    func fileShapes() throws {
        for (text, fragment) in [
            (#"{"kafka": "security.protocol=SSL"}"#, "kafka must be an object"),
            (#"{"limits": {"maxInFlight": 5}}"#, "did you mean 'maxInFlight'?"),
        ] {
            let path = try ConfigurationTestSupport.file(text)
            defer { unlink(path) }
            #expect {
                _ = try WorkerSettings.load(environment: [:], configFile: path)
            } throws: { error in
                (error as? SettingsError)?.message.contains(fragment) == true
            }
        }
    }
}
