import Configuration

/// One source of settings (flags, environment or file) over a swift-configuration snapshot.
///
/// Fixed keys are looked up through the snapshot (`InMemoryProvider` for flags, `EnvironmentVariablesProvider`
/// for the environment, `JSONSnapshot` for the file). The loader walks the layers itself, in precedence
/// order, instead of letting a `ConfigReader` do it, so that an error can say which source gave the bad
/// value. The open-ended `kafka.*` and `namedQueries.*` keys can't be looked up (a snapshot can't list its
/// keys), so each layer collects them when it is made.
struct SettingsLayer {
    enum Source {
        case flags
        case environment
        case file(path: String)
    }

    let source: Source
    let snapshot: any ConfigSnapshot
    /// librdkafka property → value.
    var kafka: [String: FoundSetting] = [:]
    /// Query name → clause.
    var namedQueries: [String: FoundSetting] = [:]

    /// The value this layer holds for `key`, if any.
    func lookup(_ key: SettingsKey) throws(SettingsError) -> FoundSetting? {
        let configKey = AbsoluteConfigKey(key.name.split(separator: ".").map(String.init))
        switch source {
        case .flags:
            return try text(configKey, key).map { FoundSetting(key: key.name, value: .text($0.text), origin: .flag(key.flag)) }
        case .environment:
            return try text(configKey, key).map {
                FoundSetting(key: key.name, value: .text($0.text), origin: .environment(SettingsKey.environmentPrefix + $0.name))
            }
        case .file(let path):
            return try typed(configKey, key).map { FoundSetting(key: key.name, value: $0, origin: .file(path: path, key: key.name)) }
        }
    }

    /// Flags and environment variables are text; the lookup also gives the encoded name (the variable's).
    private func text(_ configKey: AbsoluteConfigKey, _ key: SettingsKey) throws(SettingsError) -> (text: String, name: String)? {
        do {
            let result = try snapshot.value(forKey: configKey, type: .string)
            guard case .string(let text)? = result.value?.content else { return nil }
            return (text, result.encodedKey)
        } catch {
            throw SettingsError(
                code: .invalidValue, key: key.name, origin: .defaultValue(key: key.name), value: nil,
                message: "\(key.name) could not be read: \(error)")
        }
    }

    /// A JSON value: text, a list of strings, or a number (JSON `true`/`false` read as 1/0: the JSON
    /// snapshot does not tell booleans from numbers).
    private func typed(_ configKey: AbsoluteConfigKey, _ key: SettingsKey) throws(SettingsError) -> RawSettingValue? {
        for type in [ConfigType.string, .stringArray, .double] {
            guard let result = try? snapshot.value(forKey: configKey, type: type) else { continue }
            guard let content = result.value?.content else { return nil }
            switch content {
            case .string(let text): return .text(text)
            case .stringArray(let items): return .list(items)
            case .double(let number): return .number(number)
            default: continue
            }
        }
        guard case .file(let path) = source else { return nil }
        throw SettingsError(
            code: .invalidValue, key: key.name, origin: .file(path: path, key: key.name), value: nil,
            message: "\(key.name) must be text, a number, true/false or a list of strings")
    }
}
