/// Keeps secrets out of log lines.
///
/// Two rules, both applied to every line before it is written:
/// - **Keys**: a metadata key that names a secret has its whole value replaced, nested values included.
///   A key names a secret when, lowercased and without `_`, `-`, `.` and spaces, it contains one of
///   ``sensitiveKeyWords`` (`token`, `password`, `secret`, `authorization`, `apikey`, ...): `apiKey`,
///   `api_key`, `X-Api-Key`, `client_secret`, `refresh_token`, `kafka.sasl.password` all do.
/// - **Text**: inside any string (the message, metadata values, error descriptions, URLs), the value in
///   `name=value` / `name: value` / `"name": "value"` where `name` names a secret by the same rule
///   (`?f=json&token=abc` becomes `?f=json&token=<redacted>`), the credential after `Bearer`, the whole
///   credential after an `Authorization:`-style name (`Basic dXNlcjpw`), and the password (or a lone
///   token) in a URL's user info (`https://user:pw@host`).
///
/// The rules over-redact rather than leak: `tokenCount=5` loses its value too.
package enum LogRedaction {
    /// What replaces a secret.
    static let placeholder = "<redacted>"

    /// Substrings of a normalized key that mark it as naming a secret.
    static let sensitiveKeyWords: [String] = [
        "token", "password", "passwd", "passphrase", "secret", "authorization", "apikey", "cookie",
        "privatekey", "keypem",
    ]

    private static let keyWordBytes: [[UInt8]] = sensitiveKeyWords.map { Array($0.utf8) }

    /// Whether a metadata key (or the name in `name=value`) names a secret.
    package static func isSensitiveKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { isSensitiveName($0[...]) }
    }

    static func isSensitiveName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard name.count >= 5 else { return false }  // the shortest word is five letters
        // Normalized on the stack: every metadata key of every line comes through here.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count) { buffer in
            var count = 0
            for byte in name {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): buffer[count] = byte + 32
                case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " "): continue
                default: buffer[count] = byte
                }
                count += 1
            }
            guard count >= 5 else { return false }
            let normalized = UnsafeBufferPointer(rebasing: buffer[..<count])
            return keyWordBytes.contains { word in contains(normalized, word) }
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The text with every secret it carries replaced by ``placeholder``; the same string (no copy) when
    /// there is none.
    package static func redact(_ text: String) -> String {
        var text = text
        let replaced = text.withUTF8 { bytes -> [UInt8]? in
            var scanner = RedactionScanner(bytes: bytes)
            return scanner.run()
        }
        guard let replaced else { return text }
        return String(decoding: replaced, as: UTF8.self)
    }
}
