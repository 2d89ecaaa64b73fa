/// A setting that could not be used, naming the key, where it came from and the value.
///
/// A struct with an extensible ``Code`` and a message a person can act on, such as
/// `QUERY_WORKER_MAX_IN_FLIGHT='abc' (environment variable): maxInFlight must be a whole number`.
/// Values of keys that name secrets are shown as `<redacted>`.
package struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// A value can't be read as its type, or is out of range.
        package static let invalidValue = Code("invalid_value")
        /// A file or flag key that is not a setting.
        package static let unknownKey = Code("unknown_key")
        /// The configuration file can't be read or is not a JSON object.
        package static let invalidFile = Code("invalid_file")
        /// Two settings don't fit together (low mark above the maximum, a topic used twice).
        package static let conflict = Code("conflict")
    }

    package var code: Code
    /// The setting's key (``SettingsKey/name``, or `kafka.<property>`, `namedQueries.<name>`).
    package var key: String
    /// Where the value came from.
    package var origin: SettingsOrigin
    /// The value as given (redacted for secrets); `nil` when there is none to show.
    package var value: String?
    package var message: String

    package init(code: Code, key: String, origin: SettingsOrigin, value: String?, message: String) {
        self.code = code
        self.key = key
        self.origin = origin
        self.value = value
        self.message = message
    }

    package var description: String {
        let shown = value.map { "='\($0)'" } ?? ""
        return "\(origin.name)\(shown) (\(origin.kind)): \(message)"
    }
}

/// Where a setting's value came from.
package enum SettingsOrigin: Hashable, Sendable, CustomStringConvertible {
    /// A command-line flag, by the flag's name (`--max-in-flight`).
    case flag(String)
    /// An environment variable, by its name.
    case environment(String)
    /// The configuration file, by its path and the key in it.
    case file(path: String, key: String)
    /// The built-in default.
    case defaultValue(key: String)

    /// The flag, variable or key name.
    package var name: String {
        switch self {
        case .flag(let name), .environment(let name): name
        case .file(_, let key): key
        case .defaultValue(let key): key
        }
    }

    /// What kind of source this is, for messages.
    package var kind: String {
        switch self {
        case .flag: "flag"
        case .environment: "environment variable"
        case .file(let path, _): "file \(path)"
        case .defaultValue: "default"
        }
    }

    package var description: String { "\(name) (\(kind))" }
}
