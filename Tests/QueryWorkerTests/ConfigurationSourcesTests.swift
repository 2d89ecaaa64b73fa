import Foundation
import Logging
import QueryWorker
import Testing

@Suite("Settings: defaults, every key from every source, precedence")
struct ConfigurationSourcesTests {
    @Test("with nothing set, the defaults")
    func defaults() throws {
        let loaded = try WorkerSettings.load(environment: [:])
        let settings = loaded.settings
        #expect(settings.bootstrapServers == ["localhost:9092"])
        #expect(settings.groupID == "feature-query-workers")
        #expect(settings.workerID.wholeMatch(of: /.+-\d+/) != nil)
        #expect(settings.workerID.hasSuffix("-\(getpid())"))
        #expect(settings.topics.requests == "feature-queries")
        #expect(settings.topics.results == "feature-query-results")
        #expect(settings.topics.errors == "feature-query-errors")
        #expect(settings.allowedHosts.isEmpty)
        #expect(settings.limits.maxInFlight == 256 && settings.limits.lowMark == 192)
        #expect(settings.limits.maxRequestBytes == 1 << 20 && settings.limits.maxResultBytes == 1 << 20)
        #expect(settings.limits.maxTargets == 16)
        #expect(settings.timeouts.revoke == .seconds(10) && settings.timeouts.shutdown == .seconds(30))
        #expect(settings.timeouts.request == .seconds(60))
        #expect(settings.timeouts.httpConnect == .seconds(10) && settings.timeouts.http == .seconds(30))
        #expect(settings.summaryInterval == .seconds(30))
        #expect(settings.namedQueries.count == 7 && settings.namedQueries["government"] == "UseType = 'Government'")
        #expect(settings.allowFreeWhere)
        #expect(settings.kafkaProperties.isEmpty)
        #expect(settings.logLevel == .info)
        #expect(loaded.origins.isEmpty && loaded.configFile == nil)
        #expect(settings == WorkerSettings() || settings.workerID != WorkerSettings().workerID)
    }

    @Test("names of variables and flags")
    func names() {
        #expect(SettingsKey.maxInFlight.environmentVariable == "QUERY_WORKER_MAX_IN_FLIGHT")
        #expect(SettingsKey.maxInFlight.flag == "--max-in-flight")
        #expect(SettingsKey.bootstrapServers.environmentVariable == "QUERY_WORKER_BOOTSTRAP_SERVERS")
        #expect(SettingsKey.allowedHosts.environmentVariable == "QUERY_WORKER_ALLOWED_HOSTS")
        #expect(SettingsKey.groupID.environmentVariable == "QUERY_WORKER_GROUP_ID")
        #expect(SettingsKey.requestsTopic.environmentVariable == "QUERY_WORKER_TOPICS_REQUESTS")
        #expect(SettingsKey.requestsTopic.flag == "--topics-requests")
        #expect(SettingsKey.includeBuiltInQueries.environmentVariable == "QUERY_WORKER_INCLUDE_BUILT_IN_QUERIES")
        #expect(Set(SettingsKey.all.map(\.environmentVariable)).count == SettingsKey.all.count)
        #expect(SettingsKey.kafkaProperty(fromEnvironmentName: "QUERY_WORKER_KAFKA_SECURITY_PROTOCOL") == "security.protocol")
        #expect(SettingsKey.kafkaProperty(fromEnvironmentName: "QUERY_WORKER_KAFKA_SSL_KEY__LOCATION") == "ssl.key_location")
        #expect(SettingsKey.kafkaProperty(fromEnvironmentName: "QUERY_WORKER_KAFKA_") == nil)
    }

    @Test("every key from its environment variable", arguments: ConfigurationTestSupport.samples.map { [$0.key.name, $0.text, $0.expected] })
    func environmentVariable(_ sample: [String]) throws {
        let key = try #require(SettingsKey.named(sample[0]))
        let loaded = try WorkerSettings.load(environment: [key.environmentVariable: sample[1]])
        #expect(ConfigurationTestSupport.value(of: key, in: loaded.settings) == sample[2])
        #expect(loaded.origins[key.name] == .environment(key.environmentVariable))
    }

    @Test("every key from a flag", arguments: ConfigurationTestSupport.samples.map { [$0.key.name, $0.text, $0.expected] })
    func flag(_ sample: [String]) throws {
        let key = try #require(SettingsKey.named(sample[0]))
        let loaded = try WorkerSettings.load(flags: [key.name: sample[1]], environment: [:])
        #expect(ConfigurationTestSupport.value(of: key, in: loaded.settings) == sample[2])
        #expect(loaded.origins[key.name] == .flag(key.flag))
    }

    @Test("every key from the file, as JSON text", arguments: ConfigurationTestSupport.samples.map { [$0.key.name, $0.text, $0.expected] })
    func file(_ sample: [String]) throws {
        let key = try #require(SettingsKey.named(sample[0]))
        let text = String(data: try JSONSerialization.data(withJSONObject: [key.name: sample[1]]), encoding: .utf8) ?? ""
        let path = try ConfigurationTestSupport.file(text)
        defer { unlink(path) }
        let loaded = try WorkerSettings.load(environment: [:], configFile: path)
        #expect(ConfigurationTestSupport.value(of: key, in: loaded.settings) == sample[2])
        #expect(loaded.origins[key.name] == .file(path: path, key: key.name))
    }

    @Test("flags win over the environment, which wins over the file, which wins over the defaults")
    func precedence() throws {
        let path = try ConfigurationTestSupport.file(#"{"maxInFlight": 100, "groupId": "from-file", "logLevel": "error", "maxTargets": 3}"#)
        defer { unlink(path) }
        let environment = ["QUERY_WORKER_MAX_IN_FLIGHT": "200", "QUERY_WORKER_GROUP_ID": "from-env", "QUERY_WORKER_CONFIG_FILE": path]
        let loaded = try WorkerSettings.load(flags: ["maxInFlight": "300"], environment: environment)
        #expect(loaded.settings.limits.maxInFlight == 300)
        #expect(loaded.settings.limits.lowMark == 225, "the low mark follows the maximum when not set")
        #expect(loaded.settings.groupID == "from-env")
        #expect(loaded.settings.logLevel == .error)
        #expect(loaded.settings.limits.maxTargets == 3)
        #expect(loaded.settings.topics.requests == "feature-queries")
        #expect(loaded.origins["maxInFlight"] == .flag("--max-in-flight"))
        #expect(loaded.origins["groupId"] == .environment("QUERY_WORKER_GROUP_ID"))
        #expect(loaded.origins["logLevel"] == .file(path: path, key: "logLevel"))
        #expect(loaded.configFile == path)

        let withoutFlags = try WorkerSettings.load(environment: environment)
        #expect(withoutFlags.settings.limits.maxInFlight == 200)
        let fileOnly = try WorkerSettings.load(environment: [:], configFile: path)
        #expect(fileOnly.settings.limits.maxInFlight == 100 && fileOnly.settings.groupID == "from-file")
    }

    @Test("an explicit file path wins over QUERY_WORKER_CONFIG_FILE")
    func explicitFile() throws {
        let first = try ConfigurationTestSupport.file(#"{"groupId": "first"}"#)
        let second = try ConfigurationTestSupport.file(#"{"groupId": "second"}"#)
        defer { unlink(first); unlink(second) }
        let loaded = try WorkerSettings.load(environment: ["QUERY_WORKER_CONFIG_FILE": first], configFile: second)
        #expect(loaded.settings.groupID == "second")
    }

    @Test("empty variables are unset; other QUERY_WORKER_ variables are reported, not refused")
    func environmentHygiene() throws {
        let loaded = try WorkerSettings.load(environment: [
            "QUERY_WORKER_MAX_IN_FLIGHT": "  ", "QUERY_WORKER_SERVICE_HOST": "10.0.0.1", "QUERY_WORKER_PYTHON": "/usr/bin/python3",
            "QUERY_WORKER_MAX_INFLIGHT": "5", "PATH": "/usr/bin",
        ])
        #expect(loaded.settings.limits.maxInFlight == 256)
        #expect(loaded.ignoredEnvironmentVariables == ["QUERY_WORKER_MAX_INFLIGHT", "QUERY_WORKER_PYTHON", "QUERY_WORKER_SERVICE_HOST"])
    }
}
