/// One pass over a string's UTF-8 bytes that finds secrets (see ``LogRedaction``) and splices in the
/// placeholder. Only ASCII bytes are ever inspected or cut at, so the output stays valid UTF-8.
struct RedactionScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private var output: [UInt8]?
    private var copied = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The redacted bytes, or `nil` when nothing was redacted.
    mutating func run() -> [UInt8]? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var secret: Range<Int>?
            switch byte {
            case UInt8(ascii: "="), UInt8(ascii: ":"):
                if byte == UInt8(ascii: ":"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"),
                    bytes[index + 2] == UInt8(ascii: "/")
                {
                    secret = userInfoSecret(authorityStart: index + 3)
                } else {
                    secret = assignedValue(separator: index)
                }
            case UInt8(ascii: "B"), UInt8(ascii: "b"):
                secret = bearerCredential(at: index)
            default:
                break
            }
            if let secret, !secret.isEmpty {
                replace(secret)
                index = secret.upperBound
            } else {
                index += 1
            }
        }
        guard var output else { return nil }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
        return output
    }

    private mutating func replace(_ range: Range<Int>) {
        if output == nil { output = []; output?.reserveCapacity(bytes.count + 16) }
        output?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
        output?.append(contentsOf: LogRedaction.placeholder.utf8)
        copied = range.upperBound
    }

    // MARK: Rules

    /// `name=value`, `name: value`, `"name": "value"` with a secret-naming `name`: the value's range.
    private func assignedValue(separator: Int) -> Range<Int>? {
        var end = separator
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "\"") || bytes[end - 1] == UInt8(ascii: "'") { end -= 1 }
        var start = end
        while start > 0, Self.isNameByte(bytes[start - 1]) { start -= 1 }
        guard start < end, LogRedaction.isSensitiveName(bytes[start..<end]) else { return nil }

        var valueStart = separator + 1
        while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        guard valueStart < bytes.count else { return nil }
        let first = bytes[valueStart]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var close = valueStart + 1
            while close < bytes.count, bytes[close] != first { close += 1 }
            let quoted = (valueStart + 1)..<close
            return isPlaceholder(quoted) ? nil : quoted
        }
        var valueEnd = tokenEnd(from: valueStart)
        // `Authorization: Basic dXNlcjpw`: the scheme and the credential after it are one secret.
        if valueEnd < bytes.count, bytes[valueEnd] == UInt8(ascii: " "), isAuthScheme(valueStart..<valueEnd) {
            var next = valueEnd
            while next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
            let credentialEnd = tokenEnd(from: next)
            if credentialEnd > next { valueEnd = credentialEnd }
        }
        return valueStart..<valueEnd
    }

    /// `Bearer <credential>` anywhere (word boundary before `Bearer`).
    private func bearerCredential(at index: Int) -> Range<Int>? {
        let word = Array("bearer".utf8)
        guard index + word.count < bytes.count else { return nil }
        if index > 0, Self.isWordByte(bytes[index - 1]) { return nil }
        for offset in 0..<word.count where bytes[index + offset] | 0x20 != word[offset] { return nil }
        var start = index + word.count
        guard bytes[start] == UInt8(ascii: " ") else { return nil }
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        let end = tokenEnd(from: start)
        return end > start ? start..<end : nil
    }

    /// `scheme://user:password@host`: the password; `scheme://token@host`: the whole user info.
    private func userInfoSecret(authorityStart: Int) -> Range<Int>? {
        var end = authorityStart
        var at: Int?
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
                || Self.isDelimiter(byte)
            {
                break
            }
            if byte == UInt8(ascii: "@") { at = end }
            end += 1
        }
        guard let at, at > authorityStart else { return nil }
        var colon = authorityStart
        while colon < at, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        let secret = colon < at ? (colon + 1)..<at : authorityStart..<at
        guard !secret.isEmpty, !isPlaceholder(secret) else { return nil }
        return secret
    }

    // MARK: Bytes

    /// Where an unquoted value ends: at white space, `&`, a quote or `<`/`>` (so the placeholder itself is
    /// never a value: redacting twice changes nothing).
    private func tokenEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count, !Self.isDelimiter(bytes[end]) { end += 1 }
        return end
    }

    private func isAuthScheme(_ range: Range<Int>) -> Bool {
        let lowered = String(decoding: bytes[range].map { $0 | 0x20 }, as: UTF8.self)
        return ["bearer", "basic", "digest", "negotiate", "ntlm", "token"].contains(lowered)
    }

    private func isPlaceholder(_ range: Range<Int>) -> Bool {
        bytes[range].elementsEqual(LogRedaction.placeholder.utf8)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), 0x09, 0x0A, 0x0D, UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"),
            UInt8(ascii: "<"), UInt8(ascii: ">"):
            return true
        default:
            return false
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isWordByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
