import Foundation
import QueryWorker
import Testing
import Logging

@Suite("Settings: the JSON file, librdkafka properties and named queries")
struct ConfigurationFileTests {
    @Test("JSON types, nesting, dotted keys, null as unset")
    func jsonFile() throws {
        let path = try ConfigurationTestSupport.file(
            """
            {
              "bootstrapServers": ["b1:9092", "b2:9092"],
              "topics": {"requests": "in", "results": "out"},
              "topics.errors": "err",
              "allowedHosts": [],
              "maxInFlight": 32, "lowMark": 8, "maxRequestBytes": 65536, "maxResultBytes": "256KiB",
              "revokeTimeout": 2.5, "shutdownTimeout": "45s", "summaryInterval": 0,
              "allowFreeWhere": false, "includeBuiltInQueries": true, "logLevel": "warning",
              "workerId": null,
              "kafka": {"security.protocol": "SASL_SSL", "sasl": {"mechanisms": "PLAIN"},
                        "queue.buffering.max.ms": 5, "socket.keepalive.enable": true, "ssl.ca.pem": "-----BEGIN\\nX\\n-----END"},
              "namedQueries": {"big": "Shape__Area > 1000000", "government": "UseType = 'Gov'"}
            }
            """)
        defer { unlink(path) }
        let settings = try WorkerSettings.load(environment: [:], configFile: path).settings
        #expect(settings.bootstrapServers == ["b1:9092", "b2:9092"])
        #expect(settings.topics.requests == "in" && settings.topics.results == "out" && settings.topics.errors == "err")
        #expect(settings.allowedHosts == [])
        #expect(settings.limits.maxInFlight == 32 && settings.limits.lowMark == 8)
        #expect(settings.limits.maxRequestBytes == 65_536 && settings.limits.maxResultBytes == 262_144)
        #expect(settings.timeouts.revoke == .milliseconds(2_500) && settings.timeouts.shutdown == .seconds(45))
        #expect(settings.summaryInterval == .zero)
        #expect(settings.allowFreeWhere == false)
        #expect(settings.logLevel == .warning)
        #expect(settings.workerID.hasSuffix("-\(getpid())"), "null leaves the default")
        #expect(settings.kafkaProperties == [
            "security.protocol": "SASL_SSL", "sasl.mechanisms": "PLAIN", "queue.buffering.max.ms": "5",
            "socket.keepalive.enable": "true", "ssl.ca.pem": "-----BEGIN\nX\n-----END",
        ])
        #expect(settings.namedQueries.count == 8)
        #expect(settings.namedQueries["big"] == "Shape__Area > 1000000")
        #expect(settings.namedQueries["government"] == "UseType = 'Gov'", "a configured query replaces a built-in one")
    }

    @Test("librdkafka properties from every source merge by property, the higher source winning")
    func kafkaProperties() throws {
        let path = try ConfigurationTestSupport.file(#"{"kafka": {"security.protocol": "SSL", "linger.ms": 10, "client.id": "file"}}"#)
        defer { unlink(path) }
        let loaded = try WorkerSettings.load(
            flags: ["kafka.client.id": "flag"],
            environment: [
                "QUERY_WORKER_KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "QUERY_WORKER_KAFKA_SASL_PASSWORD": "pw",
                "QUERY_WORKER_KAFKA_SSL_KEY__PASSWORD": "x", "QUERY_WORKER_CONFIG_FILE": path,
            ])
        #expect(loaded.settings.kafkaProperties == [
            "security.protocol": "SASL_SSL", "linger.ms": "10", "client.id": "flag", "sasl.password": "pw", "ssl.key_password": "x",
        ])
        #expect(loaded.origins["kafka.security.protocol"] == .environment("QUERY_WORKER_KAFKA_SECURITY_PROTOCOL"))
        #expect(loaded.origins["kafka.client.id"] == .flag("--kafka client.id"))
        #expect(loaded.origins["kafka.linger.ms"] == .file(path: path, key: "kafka.linger.ms"))
    }

    @Test("named queries from the environment (one JSON object) and flags; built-ins can be switched off")
    func namedQueries() throws {
        let loaded = try WorkerSettings.load(
            flags: ["namedQueries.recent": "YearBuilt > 2000"],
            environment: [
                "QUERY_WORKER_NAMED_QUERIES": #"{"big": "Shape__Area > 1000000", "recent": "YearBuilt > 1990"}"#,
                "QUERY_WORKER_INCLUDE_BUILT_IN_QUERIES": "off",
            ])
        #expect(loaded.settings.namedQueries == ["big": "Shape__Area > 1000000", "recent": "YearBuilt > 2000"])
        #expect(loaded.origins["namedQueries.big"] == .environment("QUERY_WORKER_NAMED_QUERIES"))
        #expect(loaded.origins["namedQueries.recent"] == .flag("--named-query recent"))
    }
}
