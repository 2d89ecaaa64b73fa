import Logging

/// A value as a source gave it, before it is read as its key's kind.
enum RawSettingValue: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case number(Double)
    case list([String])

    var description: String {
        switch self {
        case .text(let text): text
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .list(let items): items.joined(separator: ",")
        }
    }
}

/// A value found for a key, and where.
struct FoundSetting: Sendable {
    let key: String
    let value: RawSettingValue
    let origin: SettingsOrigin

    /// An error about this value (redacted when the key names a secret).
    func error(_ message: String, code: SettingsError.Code = .invalidValue) -> SettingsError {
        let shown = SettingsRedaction.isSecret(key) ? "<redacted>" : String(value.description.prefix(200))
        return SettingsError(code: code, key: key, origin: origin, value: shown, message: message)
    }

    func text() throws(SettingsError) -> String {
        guard case .text(let raw) = value else { throw error("\(key) must be text") }
        let text = SettingsText.trimmed(raw)
        guard !text.isEmpty else { throw error("\(key) must not be empty") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw error("\(key) must not contain control characters")
        }
        return text
    }

    /// Comma-separated text or a list; items trimmed, empty items dropped.
    func list() throws(SettingsError) -> [String] {
        let items: [String]
        switch value {
        case .text(let text): items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        case .list(let list): items = list
        case .number: throw error("\(key) must be a list (a JSON array of strings, or comma-separated)")
        }
        return items.map(SettingsText.trimmed).filter { !$0.isEmpty }
    }

    func integer(in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        let number: Int?
        switch value {
        case .text(let text): number = SettingsText.wholeNumber(SettingsText.trimmed(text))
        case .number(let double): number = Int(exactly: double)
        case .list: number = nil
        }
        guard let number else { throw error("\(key) must be a whole number") }
        guard range.contains(number) else { throw error("\(key) must be between \(range.lowerBound) and \(range.upperBound)") }
        return number
    }

    /// Bytes: a whole number or a number with a unit (B, KB, MB, GB, KiB, MiB, GiB; case-insensitive).
    func size(in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        let bytes: Double?
        switch value {
        case .number(let double): bytes = double
        case .text(let text): bytes = SettingsText.quantity(text, units: SettingsText.sizeUnits)
        case .list: bytes = nil
        }
        guard let bytes, bytes.rounded() == bytes, let whole = Int(exactly: bytes) else {
            throw error("\(key) must be a size in bytes, like 1048576, 512KiB or 1MiB")
        }
        guard range.contains(whole) else {
            throw error("\(key) must be between \(range.lowerBound) and \(range.upperBound) bytes")
        }
        return whole
    }

    /// A duration with a unit (ms, s, m, h); a bare number is seconds.
    func duration(allowZero: Bool = false) throws(SettingsError) -> Duration {
        let seconds: Double?
        switch value {
        case .number(let double): seconds = double
        case .text(let text): seconds = SettingsText.quantity(text, units: SettingsText.durationUnits)
        case .list: seconds = nil
        }
        guard let seconds, seconds.isFinite else { throw error("\(key) must be a duration, like 500ms, 10s, 2m or 1h") }
        guard seconds >= 0 else { throw error("\(key) must not be negative") }
        guard allowZero || seconds > 0 else { throw error("\(key) must be longer than zero") }
        guard seconds <= 7 * 86_400 else { throw error("\(key) must be at most a week") }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    func bool() throws(SettingsError) -> Bool {
        switch value {
        case .number(let number) where number == 0 || number == 1: return number == 1
        case .text(let text):
            switch SettingsText.trimmed(text).lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: break
            }
        default: break
        }
        throw error("\(key) must be true or false")
    }

    func logLevel() throws(SettingsError) -> Logger.Level {
        guard case .text(let text) = value, let level = Logger.Level(rawValue: SettingsText.trimmed(text).lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw error("\(key) must be one of \(names)")
        }
        return level
    }
}

/// Text helpers of the settings loader.
enum SettingsText {
    static let sizeUnits: [String: Double] = [
        "": 1, "b": 1, "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000,
        "kib": 1_024, "mib": 1_048_576, "gib": 1_073_741_824,
    ]
    static let durationUnits: [String: Double] = ["": 1, "ms": 0.001, "s": 1, "m": 60, "h": 3_600]

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// An optional `-` and ASCII digits (`Int("+5")` would accept a sign; `1_000` is not a number here).
    static func wholeNumber(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// `1.5m`, `250 ms`, `1MiB`: a decimal number, optional spaces, and a unit from `units` (case-insensitive),
    /// multiplied out; `nil` for anything else.
    static func quantity(_ text: String, units: [String: Double]) -> Double? {
        let text = trimmed(text).lowercased()
        let numberEnd = text.firstIndex { !($0.isASCII && ($0.isNumber || $0 == "." || $0 == "-")) } ?? text.endIndex
        let numberText = text[..<numberEnd]
        let unit = trimmed(String(text[numberEnd...]))
        guard !numberText.isEmpty, numberText.first != ".", numberText.last != ".",
            let number = Double(numberText), let factor = units[unit]
        else { return nil }
        return number * factor
    }
}

/// Which settings hold secrets, so that errors and summaries never show their values.
enum SettingsRedaction {
    static let words = [
        "token", "password", "passwd", "passphrase", "secret", "authorization", "apikey", "keypem", "privatekey",
        "oauthbearerconfig",
    ]

    static func isSecret(_ key: String) -> Bool {
        let normalized = String(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." })
        return words.contains { normalized.contains($0) }
    }
}
