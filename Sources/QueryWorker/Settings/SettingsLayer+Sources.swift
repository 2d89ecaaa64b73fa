import Configuration
import FeatureQuerySupport
import Foundation

extension SettingsLayer {
    /// Flags the executable's user set, by key (`maxInFlight`, `kafka.security.protocol`,
    /// `namedQueries.big`). A key that is not a setting is a programming error, reported as one.
    static func flags(_ flags: [String: String]) throws(SettingsError) -> SettingsLayer {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        var kafka: [String: FoundSetting] = [:]
        var namedQueries: [String: FoundSetting] = [:]
        for (key, value) in flags {
            if let property = suffix(key, SettingsKey.kafkaPrefix) {
                kafka[property] = FoundSetting(key: key, value: .text(value), origin: .flag("--kafka \(property)"))
            } else if let name = suffix(key, SettingsKey.namedQueryPrefix) {
                namedQueries[name] = FoundSetting(key: key, value: .text(value), origin: .flag("--named-query \(name)"))
            } else if let known = SettingsKey.named(key) {
                values[AbsoluteConfigKey(known.name.split(separator: ".").map(String.init))] = ConfigValue(
                    .string(value), isSecret: false)
            } else {
                throw SettingsError(
                    code: .unknownKey, key: key, origin: .flag(key), value: nil,
                    message: "'\(key)' is not a setting\(Suggestion.text(for: key))")
            }
        }
        return SettingsLayer(
            source: .flags, snapshot: InMemoryProvider(name: "flags", values: values).snapshot(),
            kafka: kafka, namedQueries: namedQueries)
    }

    /// The `QUERY_WORKER_*` variables. An empty variable counts as unset (templated deployments often set
    /// empty ones). Variables with the prefix that are not settings are returned, not refused: a platform
    /// may set some (Kubernetes service links such as `QUERY_WORKER_SERVICE_HOST`).
    static func environment(_ environment: [String: String]) throws(SettingsError) -> (SettingsLayer, ignored: [String]) {
        let known = Set(SettingsKey.all.map(\.environmentVariable))
        var stripped: [String: String] = [:]
        var ignored: [String] = []
        var kafka: [String: FoundSetting] = [:]
        var namedQueries: [String: FoundSetting] = [:]
        for (name, value) in environment where name.hasPrefix(SettingsKey.environmentPrefix) {
            guard !SettingsText.trimmed(value).isEmpty else { continue }
            if known.contains(name) {
                stripped[String(name.dropFirst(SettingsKey.environmentPrefix.count))] = value
            } else if let property = SettingsKey.kafkaProperty(fromEnvironmentName: name) {
                kafka[property] = FoundSetting(key: SettingsKey.kafkaPrefix + property, value: .text(value), origin: .environment(name))
            } else if name == SettingsKey.namedQueriesVariable {
                namedQueries = try parseNamedQueries(value, variable: name)
            } else if name != SettingsKey.configFileVariable {
                ignored.append(name)
            }
        }
        let provider = EnvironmentVariablesProvider(environmentVariables: stripped)
        let layer = SettingsLayer(source: .environment, snapshot: provider.snapshot(), kafka: kafka, namedQueries: namedQueries)
        return (layer, ignored.sorted())
    }

    private static func parseNamedQueries(_ text: String, variable: String) throws(SettingsError) -> [String: FoundSetting] {
        func invalid(_ why: String) -> SettingsError {
            SettingsError(
                code: .invalidValue, key: "namedQueries", origin: .environment(variable), value: String(text.prefix(200)),
                message: "\(variable) must be a JSON object of query names and where clauses, like "
                    + "{\"big\": \"Shape__Area > 1000000\"}: \(why)")
        }
        guard let json = try? ParsedJSON(reading: text), case .object(let members) = json else {
            throw invalid("it is not a JSON object")
        }
        var result: [String: FoundSetting] = [:]
        for (name, value) in members {
            guard case .string(let clause) = value else { throw invalid("the value of '\(name)' is not a string") }
            result[name] = FoundSetting(
                key: SettingsKey.namedQueryPrefix + name, value: .text(clause), origin: .environment(variable))
        }
        return result
    }

    private static func suffix(_ key: String, _ prefix: String) -> String? {
        key.hasPrefix(prefix) && key.count > prefix.count ? String(key.dropFirst(prefix.count)) : nil
    }
}
