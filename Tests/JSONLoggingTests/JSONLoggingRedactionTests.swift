import FeatureGeometry
import FeatureQuerySupport
import JSONLogging
import Logging
import Synchronization
import Testing

@Suite("JSON log handler: secrets never reach a line")
struct JSONLoggingRedactionTests {
    private static func line(_ message: Logger.Message, metadata: Logger.Metadata = [:]) -> String {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "redaction") { label in
            JSONLogHandler(label: label, sink: JSONLogSink { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } })
        }
        logger.info(message, metadata: metadata)
        return lines.withLock { $0.first ?? "" }
    }

    @Test("values of secret-named keys are redacted, any case and spelling, nested too", arguments: [
        "token", "password", "PASSWORD", "secret", "Authorization", "apiKey", "api_key", "X-Api-Key", "client_secret",
        "refresh_token", "accessToken", "kafka.sasl.password", "ssl.key.pem", "Cookie",
    ])
    func secretKeys(_ key: String) throws {
        let text = Self.line("m", metadata: [key: "s3cr3t-value", "outer": ["inner": [key: "s3cr3t-value"]], "list": [[key: "s3cr3t-value"]]])
        #expect(!text.contains("s3cr3t"), "\(text)")
        let parsed = try ParsedJSON(parsing: text.dropLast().utf8)
        #expect(parsed[key] == .string("<redacted>"))
        #expect(parsed["outer"]?["inner"]?[key] == .string("<redacted>"))
    }

    @Test("a secret-named key hides a whole nested value")
    func nestedValueUnderSecretKey() {
        let text = Self.line("m", metadata: ["credentials": "ok", "password": ["a": "x1y2z3", "b": ["q9w8e7"]]])
        #expect(!text.contains("x1y2z3") && !text.contains("q9w8e7"))
        #expect(text.contains(#""credentials":"ok""#), "over-redaction stays within the listed words")
    }

    @Test("secrets inside text are redacted", arguments: [
        ("GET https://gis.example.com/arcgis/rest/services?f=json&token=abc.DEF-123&where=1%3D1",
         "GET https://gis.example.com/arcgis/rest/services?f=json&token=<redacted>&where=1%3D1"),
        ("login password=hunter2 failed", "login password=<redacted> failed"),
        ("Authorization: Bearer eyJhbGciOi.eyJzdWIi.sig", "Authorization: <redacted>"),
        ("authorization: Basic dXNlcjpwYXNz and more", "authorization: <redacted> and more"),
        ("sent bearer abc123 upstream", "sent bearer <redacted> upstream"),
        (#"body {"token":"abc","n":1}"#, #"body {"token":"<redacted>","n":1}"#),
        (#"body {"client_secret": "xyz", "refresh_token" : "r1"}"#, #"body {"client_secret": "<redacted>", "refresh_token" : "<redacted>"}"#),
        ("proxy https://user:pa55@proxy.example.com:8080/x", "proxy https://user:<redacted>@proxy.example.com:8080/x"),
        ("clone https://ghp_t0k3n@github.com/o/r", "clone https://<redacted>@github.com/o/r"),
        ("apiKey=k1&access_token=k2&X-API-KEY:k3", "apiKey=<redacted>&access_token=<redacted>&X-API-KEY:<redacted>"),
        ("token=<redacted> stays", "token=<redacted> stays"),
        ("nothing here: where=UseType = 'Government', bearer", "nothing here: where=UseType = 'Government', bearer"),
        ("Zürich token=Grüße🚀 rest", "Zürich token=<redacted> rest"),
    ])
    func secretsInText(_ pair: (String, String)) throws {
        #expect(LogRedaction.redact(pair.0) == pair.1)
        let text = Self.line("\(pair.0)", metadata: ["url": "\(pair.0)", "nested": ["k": "\(pair.0)"], "list": ["\(pair.0)"]])
        let parsed = try ParsedJSON(parsing: text.dropLast().utf8)
        #expect(parsed["message"] == .string(pair.1))
        #expect(parsed["url"] == .string(pair.1))
        #expect(parsed["nested"]?["k"] == .string(pair.1))
        #expect(parsed["list"] == .array([.string(pair.1)]))
    }

    @Test("redaction is idempotent and leaves text without secrets untouched")
    func idempotent() {
        let samples = ["a=b&c=d", "token=abc", "Bearer x", "https://u:p@h/", "plain text", ""]
        for sample in samples {
            let once = LogRedaction.redact(sample)
            #expect(LogRedaction.redact(once) == once)
        }
        #expect(LogRedaction.redact("a=b&c=d") == "a=b&c=d")
        #expect(LogRedaction.isSensitiveKey("taskId") == false)
        #expect(LogRedaction.isSensitiveKey("API-KEY"))
    }

    @Test("description of a stringConvertible value is redacted too")
    func convertibleDescriptions() {
        struct Request: CustomStringConvertible, Sendable {
            var description: String { "Request(url: https://h/q?token=tkn999)" }
        }
        let text = Self.line("m", metadata: ["request": .stringConvertible(Request())])
        #expect(!text.contains("tkn999"))
    }
}
