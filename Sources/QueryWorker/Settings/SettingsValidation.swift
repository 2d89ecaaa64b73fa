import Foundation
import QueryLanguage

/// Checks of values whose rules go beyond their kind.
enum SettingsValidation {
    /// librdkafka properties the worker sets itself: overriding them would break what it promises.
    static let reservedKafkaProperties: [String: String] = [
        "bootstrap.servers": "set bootstrapServers instead",
        "group.id": "set groupId instead",
        "enable.auto.offset.store": "the worker stores offsets itself, after each request is done (at-least-once)",
        "enable.auto.commit": "the worker relies on librdkafka committing the offsets it stores (at-least-once)",
    ]

    static func servers(_ found: FoundSetting) throws(SettingsError) -> [String] {
        let servers = try found.list()
        guard !servers.isEmpty else { throw found.error("bootstrapServers must name at least one broker (host:port)") }
        for server in servers where server.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            throw found.error("bootstrapServers entry '\(server)' must not contain white space")
        }
        for server in servers {
            if let port = brokerPort(server), !(1...65_535).contains(Int(port) ?? 0) {
                throw found.error(
                    "bootstrapServers entry '\(server)' has port \(port); a port is a number from 1 to 65535 "
                        + "(librdkafka would silently use another)")
            }
        }
        return servers
    }

    /// The port text of a broker entry (`host:port`, `[v6]:port`, `PROTOCOL://host:port`), `nil` when it names
    /// none (`host`, a bare IPv6 address: librdkafka then uses 9092).
    static func brokerPort(_ entry: String) -> Substring? {
        var rest = Substring(entry)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let after = rest[rest.index(after: close)...]
            return after.hasPrefix(":") ? after.dropFirst() : nil
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 ? parts[1] : nil
    }

    /// A file the worker reads at start (the credentials file): it must be there, so that the error names the
    /// setting and where it came from. Its content is checked afterwards (`WorkerCredentials`).
    static func readableFile(_ found: FoundSetting) throws(SettingsError) -> String {
        let path = try found.text()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else { throw found.error("\(found.key) must name a file this worker can read") }
        return path
    }

    /// A group or worker id: printable, no white space.
    static func name(_ found: FoundSetting, maxLength: Int) throws(SettingsError) -> String {
        let text = try found.text()
        guard text.count <= maxLength, !text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
            throw found.error("\(found.key) must be at most \(maxLength) characters without white space")
        }
        return text
    }

    /// Kafka's topic-name rules: 1-249 of `a-z A-Z 0-9 . _ -`, not `.` or `..`.
    static func topic(_ found: FoundSetting) throws(SettingsError) -> String {
        let text = try found.text()
        let legal = text.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard legal, text.utf8.count <= 249, text != ".", text != ".." else {
            throw found.error("\(found.key) must be a Kafka topic name: up to 249 letters, digits, '.', '_' and '-'")
        }
        return text
    }

    /// Every entry must parse as a `HostPolicy` entry; the error names the entry.
    static func hosts(_ found: FoundSetting) throws(SettingsError) -> [String] {
        let hosts = try found.list()
        do {
            _ = try HostPolicy(allowedHosts: hosts)
        } catch {
            throw found.error(error.message)
        }
        return hosts
    }

    /// The requests topic must differ from the output topics, or the worker would consume its own results.
    static func topicsDiffer(_ topics: WorkerSettings.Topics, origins: [String: SettingsOrigin]) throws(SettingsError) {
        let outputs = [
            (SettingsKey.resultsTopic, topics.results), (SettingsKey.errorsTopic, topics.errors),
            (SettingsKey.progressTopic, topics.progress),
        ]
        for (key, topic) in outputs
        where topic == topics.requests {
            let origin = origins[key.name] ?? origins[SettingsKey.requestsTopic.name] ?? .defaultValue(key: key.name)
            throw SettingsError(
                code: .conflict, key: key.name, origin: origin, value: topic,
                message: "\(key.name) must differ from topics.requests, or the worker would read its own output")
        }
    }

    /// A named query's name and clause, checked as the worker's catalog will check them.
    static func namedQuery(name: String, _ found: FoundSetting) throws(SettingsError) -> String {
        let clause = try found.text()
        do {
            _ = try NamedQueryCatalog(additional: [NamedQuery(name: name, clause: clause)], includeBuiltIns: false)
        } catch {
            throw found.error(error.message)
        }
        return clause
    }

    /// A librdkafka property: a lowercase dotted name, not one the worker owns; its value may span lines
    /// (PEM certificates) but not hold NUL.
    static func kafkaProperty(_ property: String, _ found: FoundSetting) throws(SettingsError) -> String {
        let legalName = !property.isEmpty && property.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard legalName else {
            throw found.error("'\(property)' is not a librdkafka property name (lowercase letters, digits, '.', '_', '-')")
        }
        if let reason = reservedKafkaProperties[property] {
            throw found.error("the librdkafka property '\(property)' can't be passed through: \(reason)", code: .conflict)
        }
        guard case .text(let value) = found.value, !value.utf8.contains(0) else {
            throw found.error("\(found.key) must be text without NUL characters")
        }
        return value
    }
}
