package import FeatureQuerySupport
import Foundation
import JSONLogging
package import Kafka
package import Logging
import Synchronization
import FeatureGeometry

/// Everything the worker says while a credentials test runs: every log line as the production handler writes
/// it (``JSONLogHandler``, redaction and all) and every event as the worker handed it to the logger before any
/// redaction, so the leak test can search both.
package final class LogCapture: Sendable {
    private let written = Mutex<[String]>([])
    private let raw = Mutex<[String]>([])

    package init() {}

    /// A logger at `level` that writes to this capture.
    package func logger(label: String = "worker-credentials-e2e", level: Logger.Level) -> Logger {
        let sink = JSONLogSink { line in self.written.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }
        var logger = Logger(label: label) { label in
            MultiplexLogHandler([JSONLogHandler(label: label, sink: sink), RawCaptureHandler(record: { self.recordRaw($0) })])
        }
        logger.logLevel = level
        return logger
    }

    private func recordRaw(_ text: String) { raw.withLock { $0.append(text) } }

    /// The lines the production handler wrote.
    package var lines: [String] { written.withLock { $0 } }
    /// Each event's message, error and metadata as given to the logger, before the handler's redaction.
    package var events: [String] { raw.withLock { $0 } }
}

/// Records each event's message, error and metadata (nested values included) as text, unredacted.
private struct RawCaptureHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    let record: @Sendable (String) -> Void

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let error = event.error.map { " error=\(String(describing: $0))" } ?? ""
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        record("\(event.level) \(event.message)\(error) \(merged)")
    }
}

/// One message the worker produced, as it was on the topic.
package struct CapturedMessage: Sendable {
    package var topic: String
    package var key: String?
    /// `name=value` of each header.
    package var headers: [String]
    package var value: String
    package var json: ParsedJSON?

    /// Key, headers and value together, for searching.
    package var text: String { ([topic, key ?? ""] + headers + [value]).joined(separator: "\n") }

    package init(_ message: KafkaConsumerMessage) {
        topic = message.topic
        key = message.key.map { String(decoding: $0, as: UTF8.self) }
        headers = message.headers.map { "\($0.key)=\(String(decoding: $0.value ?? [], as: UTF8.self))" }
        let bytes = message.value ?? []
        value = String(decoding: bytes, as: UTF8.self)
        json = try? ParsedJSON(parsing: bytes)
    }
}

extension CredentialsFolder {
    /// `{"file": PATH}` of a new secret file holding `value`: how the credentials file names a secret.
    package func secret(_ name: String, _ value: String) throws -> String {
        #"{"file": "\#(try write(name, value))"}"#
    }
}

/// JSON texts of credentials, as an operator writes them (secrets as `{"file": ...}` references made by
/// ``CredentialsFolder/secret(_:_:)``).
package enum CredentialJSON {
    package static func scope(_ prefixes: [String]) -> String { "[" + prefixes.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }

    package static func token(
        _ name: String, scope prefixes: [String], username: String, password: String, tokenURL: String? = nil,
        referer: String = "https://worker.example"
    ) -> String {
        let url = tokenURL.map { #", "tokenUrl": "\#($0)""# } ?? ""
        return #"{"name": "\#(name)", "kind": "token", "scope": \#(scope(prefixes)), "username": "\#(username)", "password": \#(password), "referer": "\#(referer)", "expirationMinutes": 60\#(url)}"#
    }

    package static func apiKey(_ name: String, scope prefixes: [String], key: String, parameter: String? = nil) -> String {
        let header = parameter.map { #", "parameter": "\#($0)""# } ?? ""
        return #"{"name": "\#(name)", "kind": "apiKey", "scope": \#(scope(prefixes)), "key": \#(key)\#(header)}"#
    }

    package static func pregeneratedToken(_ name: String, scope prefixes: [String], token: String) -> String {
        #"{"name": "\#(name)", "kind": "pregeneratedToken", "scope": \#(scope(prefixes)), "token": \#(token), "referer": "https://worker.example"}"#
    }

    package static func oauthApp(_ name: String, scope prefixes: [String], portal: String, clientID: String, secret: String) -> String {
        #"{"name": "\#(name)", "kind": "oauthApp", "scope": \#(scope(prefixes)), "portalUrl": "\#(portal)", "clientId": "\#(clientID)", "clientSecret": \#(secret), "expirationMinutes": 60}"#
    }

    package static func oauthUser(_ name: String, scope prefixes: [String], portal: String, clientID: String, refreshTokenFile: String) -> String {
        #"{"name": "\#(name)", "kind": "oauthUser", "scope": \#(scope(prefixes)), "portalUrl": "\#(portal)", "clientId": "\#(clientID)", "refreshTokenFile": "\#(refreshTokenFile)"}"#
    }

    package static func oauth2(_ name: String, scope prefixes: [String], tokenURL: String, clientID: String, secret: String) -> String {
        #"{"name": "\#(name)", "kind": "oauth2", "scope": \#(scope(prefixes)), "tokenUrl": "\#(tokenURL)", "clientId": "\#(clientID)", "clientSecret": \#(secret)}"#
    }

    package static func password(_ name: String, scope prefixes: [String], scheme: String, username: String, password: String) -> String {
        #"{"name": "\#(name)", "kind": "password", "scope": \#(scope(prefixes)), "scheme": "\#(scheme)", "username": "\#(username)", "password": \#(password)}"#
    }

    package static func certificate(_ name: String, scope prefixes: [String], path: String, password: String) -> String {
        #"{"name": "\#(name)", "kind": "certificate", "scope": \#(scope(prefixes)), "path": "\#(path)", "password": \#(password)}"#
    }

    package static func serverTrust(_ name: String, scope prefixes: [String], caFile: String) -> String {
        #"{"name": "\#(name)", "kind": "serverTrust", "scope": \#(scope(prefixes)), "caFile": "\#(caFile)"}"#
    }

    /// The whole file.
    package static func file(_ credentials: [String]) -> String {
        "{\"credentials\": [\n" + credentials.joined(separator: ",\n") + "\n]}"
    }
}
