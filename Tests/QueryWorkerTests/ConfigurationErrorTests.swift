import Foundation
import QueryWorker
import Testing

@Suite("Settings: every bad value is an error naming key, source and value")
struct ConfigurationErrorTests {
    /// Variable, bad value, expected code, a fragment of the message.
    static let environmentCases: [[String]] = [
        ["QUERY_WORKER_MAX_IN_FLIGHT", "abc", "invalid_value", "whole number"],
        ["QUERY_WORKER_MAX_IN_FLIGHT", "0", "invalid_value", "between 1 and"],
        ["QUERY_WORKER_MAX_IN_FLIGHT", "+5", "invalid_value", "whole number"],
        ["QUERY_WORKER_LOW_MARK", "300", "conflict", "below maxInFlight (256)"],
        ["QUERY_WORKER_LOW_MARK", "256", "conflict", "below maxInFlight"],
        ["QUERY_WORKER_LOW_MARK", "-1", "invalid_value", "between 0 and"],
        ["QUERY_WORKER_REVOKE_TIMEOUT", "-5s", "invalid_value", "must not be negative"],
        ["QUERY_WORKER_SHUTDOWN_TIMEOUT", "0", "invalid_value", "longer than zero"],
        ["QUERY_WORKER_REQUEST_TIMEOUT", "10 parsecs", "invalid_value", "duration"],
        ["QUERY_WORKER_REQUEST_TIMEOUT", "nan", "invalid_value", "duration"],
        ["QUERY_WORKER_HTTP_CONNECT_TIMEOUT", "40s", "conflict", "httpTimeout"],
        ["QUERY_WORKER_SUMMARY_INTERVAL", "30d", "invalid_value", "duration"],
        ["QUERY_WORKER_MAX_REQUEST_BYTES", "1XB", "invalid_value", "size in bytes"],
        ["QUERY_WORKER_MAX_RESULT_BYTES", "100", "invalid_value", "between 1024 and"],
        ["QUERY_WORKER_MAX_RESULT_BYTES", "1.5", "invalid_value", "size in bytes"],
        ["QUERY_WORKER_MAX_TARGETS", "17", "invalid_value", "between 1 and 16"],
        ["QUERY_WORKER_MAX_LAYERS", "1601", "invalid_value", "between 1 and 1600"],
        ["QUERY_WORKER_BOOTSTRAP_SERVERS", "127.0.0.1:99999", "invalid_value", "a port is a number from 1 to 65535"],
        ["QUERY_WORKER_ALLOW_FREE_WHERE", "maybe", "invalid_value", "true or false"],
        ["QUERY_WORKER_LOG_LEVEL", "verbose", "invalid_value", "trace, debug, info, notice, warning, error, critical"],
        ["QUERY_WORKER_ALLOWED_HOSTS", "services.arcgis.com,https://gis.example.com", "invalid_value", "'https://gis.example.com'"],
        ["QUERY_WORKER_ALLOWED_HOSTS", "10.0.0.1/8", "invalid_value", "CIDR"],
        ["QUERY_WORKER_BOOTSTRAP_SERVERS", ",", "invalid_value", "at least one broker"],
        ["QUERY_WORKER_TOPICS_REQUESTS", "bad topic", "invalid_value", "Kafka topic name"],
        ["QUERY_WORKER_TOPICS_RESULTS", "feature-queries", "conflict", "must differ from topics.requests"],
        ["QUERY_WORKER_GROUP_ID", "two words", "invalid_value", "without white space"],
        ["QUERY_WORKER_NAMED_QUERIES", "big=Shape__Area > 1", "invalid_value", "JSON object"],
        ["QUERY_WORKER_NAMED_QUERIES", #"{"big": 5}"#, "invalid_value", "not a string"],
        ["QUERY_WORKER_NAMED_QUERIES", #"{"big": "Shape__Area >"}"#, "invalid_value", "invalid clause"],
        ["QUERY_WORKER_NAMED_QUERIES", #"{"no spaces": "A = 1"}"#, "invalid_value", "invalid name"],
        ["QUERY_WORKER_KAFKA_GROUP_ID", "other", "conflict", "set groupId instead"],
        ["QUERY_WORKER_KAFKA_ENABLE_AUTO_OFFSET_STORE", "true", "conflict", "at-least-once"],
    ]

    @Test("bad environment values", arguments: environmentCases)
    func environment(_ testCase: [String]) {
        let (variable, value, code, fragment) = (testCase[0], testCase[1], testCase[2], testCase[3])
        #expect {
            _ = try WorkerSettings.load(environment: [variable: value])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            let named = error.description.contains(variable) && error.description.contains("environment variable")
            let shows = error.value.map { !$0.isEmpty } ?? false
            let matches = error.code.rawValue == code && error.message.contains(fragment) && named && shows
            if !matches { Issue.record("\(variable)=\(value): \(error)") }
            return matches
        }
    }

    @Test("bad file values and keys name the file and the key")
    func fileErrors() throws {
        let cases: [(String, String, String)] = [
            (#"{"maxInFlihgt": 5}"#, "unknown_key", "did you mean 'maxInFlight'?"),
            (#"{"limits": {"maxInFlight": 5}}"#, "unknown_key", "'limits.maxInFlight' is not a setting"),
            (#"{"maxInFlight": [1, 2]}"#, "invalid_value", "must be text, a number"),
            (#"{"maxInFlight": 2.5}"#, "invalid_value", "whole number"),
            (#"{"allowFreeWhere": 5}"#, "invalid_value", "true or false"),
            (#"{"bootstrapServers": 9092}"#, "invalid_value", "must be a list"),
            (#"{"kafka": {"Security.Protocol": "SSL"}}"#, "invalid_value", "not a librdkafka property name"),
            (#"{"kafka": {"bootstrap.servers": "x:1"}}"#, "conflict", "set bootstrapServers instead"),
            (#"{"kafka": {"linger.ms": [1]}}"#, "invalid_value", "must be text, a number or true/false"),
            (#"{"namedQueries": {"big": 5}}"#, "invalid_value", "must be a where clause"),
            (#"[1, 2]"#, "invalid_file", "must hold a JSON object"),
            (#"{"maxInFlight": 5"#, "invalid_file", "is not valid JSON"),
        ]
        for (text, code, fragment) in cases {
            let path = try ConfigurationTestSupport.file(text)
            defer { unlink(path) }
            do {
                _ = try WorkerSettings.load(environment: [:], configFile: path)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.code.rawValue == code, "\(text): \(error)")
                #expect(error.message.contains(fragment), "\(text): \(error)")
                #expect(error.description.contains(path), "\(text): \(error)")
            }
        }
    }

    @Test("a missing file and an unknown flag are errors")
    func missingFileAndUnknownFlag() {
        #expect {
            _ = try WorkerSettings.load(environment: ["QUERY_WORKER_CONFIG_FILE": "/nonexistent/worker.json"])
        } throws: { error in
            (error as? SettingsError)?.code == .invalidFile && "\(error)".contains("/nonexistent/worker.json")
        }
        #expect {
            _ = try WorkerSettings.load(flags: ["max-in-flight": "5"], environment: [:])
        } throws: { error in
            (error as? SettingsError)?.code == .unknownKey && (error as? SettingsError)?.key == "max-in-flight"
        }
    }

    @Test("a flag's bad value names the flag; a secret's value is never shown")
    func flagErrorsAndSecrets() throws {
        do {
            _ = try WorkerSettings.load(flags: ["revokeTimeout": "-1s"], environment: [:])
            Issue.record("accepted a negative timeout")
        } catch {
            #expect(error.origin == .flag("--revoke-timeout"))
            #expect(error.value == "-1s")
            #expect(error.description == "--revoke-timeout='-1s' (flag): revokeTimeout must not be negative")
        }
        do {
            _ = try WorkerSettings.load(environment: ["QUERY_WORKER_KAFKA_SASL_PASSWORD": "hunter2\u{0}"])
            Issue.record("accepted NUL")
        } catch {
            #expect(error.value == "<redacted>")
            #expect(!error.description.contains("hunter2"))
        }
    }
}
