import Configuration
import FeatureQuerySupport
import Foundation

extension SettingsLayer {
    /// Largest configuration file read.
    static let maxFileBytes = 1 << 20

    /// A JSON configuration file: an object whose members are settings keys, nested or dotted
    /// (`{"topics": {"requests": "q"}}` is `topics.requests`), `kafka` (an object of librdkafka properties)
    /// and `namedQueries` (an object of names and where clauses). A `null` value counts as unset. An
    /// unknown key is an error (a typo must not silently leave a default in place).
    ///
    /// Values of fixed keys are read by swift-configuration's `JSONSnapshot`; one pass of FeatureGeometry's
    /// JSON parser over the same bytes lists the keys, which a snapshot can't.
    static func file(path: String) throws(SettingsError) -> SettingsLayer {
        func invalid(_ why: String) -> SettingsError {
            SettingsError(
                code: .invalidFile, key: "configFile", origin: .file(path: path, key: "(file)"), value: path,
                message: "the configuration file \(path) \(why)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw invalid("can't be read") }
        guard data.count <= maxFileBytes else { throw invalid("is larger than \(maxFileBytes) bytes") }
        let json: ParsedJSON
        do {
            json = try ParsedJSON(reading: data)
        } catch {
            throw invalid("is not valid JSON: \(error)")
        }
        guard case .object = json else { throw invalid("must hold a JSON object") }

        let snapshot: JSONSnapshot
        do {
            snapshot = try JSONSnapshot(data: data.bytes, providerName: "file \(path)", parsingOptions: .default)
        } catch {
            throw invalid("can't be read as settings: \(error)")
        }
        var layer = SettingsLayer(source: .file(path: path), snapshot: snapshot)
        for (key, value) in flattened(json) {
            let origin = SettingsOrigin.file(path: path, key: key)
            if key.hasPrefix(SettingsKey.kafkaPrefix) {
                let property = String(key.dropFirst(SettingsKey.kafkaPrefix.count))
                layer.kafka[property] = FoundSetting(key: key, value: try kafkaValue(value, key: key, origin: origin), origin: origin)
            } else if key.hasPrefix(SettingsKey.namedQueryPrefix) {
                guard case .string(let clause) = value else {
                    throw SettingsError(
                        code: .invalidValue, key: key, origin: origin, value: nil, message: "\(key) must be a where clause (text)")
                }
                let name = String(key.dropFirst(SettingsKey.namedQueryPrefix.count))
                layer.namedQueries[name] = FoundSetting(key: key, value: .text(clause), origin: origin)
            } else if key == "kafka" || key == "namedQueries" {
                throw SettingsError(
                    code: .invalidValue, key: key, origin: origin, value: nil,
                    message: "\(key) must be an object (\(key == "kafka" ? "librdkafka property → value" : "name → where clause"))")
            } else if SettingsKey.named(key) == nil {
                throw SettingsError(
                    code: .unknownKey, key: key, origin: origin, value: nil,
                    message: "'\(key)' is not a setting\(Suggestion.text(for: key))")
            }
        }
        return layer
    }

    /// librdkafka takes every property as text: numbers and booleans are written as librdkafka spells them.
    private static func kafkaValue(_ value: ParsedJSON, key: String, origin: SettingsOrigin) throws(SettingsError) -> RawSettingValue {
        switch value {
        case .string(let text): return .text(text)
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .number(let number): return .text(RawSettingValue.number(number).description)
        default:
            throw SettingsError(
                code: .invalidValue, key: key, origin: origin, value: nil,
                message: "\(key) must be text, a number or true/false")
        }
    }

    /// Leaves of nested objects, by dotted key; `null` leaves are left out.
    static func flattened(_ json: ParsedJSON, prefix: String = "") -> [(String, ParsedJSON)] {
        guard case .object(let members) = json else { return prefix.isEmpty ? [] : [(prefix, json)] }
        var result: [(String, ParsedJSON)] = []
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            let key = prefix.isEmpty ? name : prefix + "." + name
            if case .null = value { continue }
            if case .object = value {
                result += flattened(value, prefix: key)
            } else {
                result.append((key, value))
            }
        }
        return result
    }
}

/// "; did you mean 'maxInFlight'?" for a key a couple of edits away from a real one.
enum Suggestion {
    static func text(for key: String) -> String {
        let candidates = SettingsKey.all.map(\.name)
        let last = key.split(separator: ".").last.map(String.init) ?? key
        let scored = candidates.map { candidate in
            (candidate, min(distance(key.lowercased(), candidate.lowercased()), distance(last.lowercased(), candidate.lowercased())))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, last.count / 4) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
