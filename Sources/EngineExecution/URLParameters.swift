import CurlHTTP

/// Query parameters a credential adds to a GET URL: added last, replacing any of the same name the URL
/// already has (a `next` link may echo an API key, possibly an older one).
package enum URLParameters {
    /// `url` with `parameters` set in its query (before any fragment).
    package static func setting(_ parameters: [AppliedAuthentication.HeaderField], in url: String) -> String {
        guard !parameters.isEmpty else { return url }
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var path = base
        var pairs: [Substring] = []
        if let question = base.firstIndex(of: "?") {
            path = base[..<question]
            let names = Set(parameters.map { encode($0.name) })
            pairs = base[base.index(after: question)...].split(separator: "&").filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? pair
                return !names.contains(String(name))
            }
        }
        for field in parameters { pairs.append(Substring(encode(field.name) + "=" + encode(field.value))) }
        return String(path) + "?" + pairs.joined(separator: "&") + fragment
    }

    /// `value` form-encoded, as query strings carry it.
    package static func encode(_ value: String) -> String { HTTPRequest.formEncode(value) }

    /// `text` with the value of every `name=` that follows a `?` or `&` replaced by `<redacted>` (up to the next
    /// `&`, `#`, quote, space or end).
    static func redactingValues(of name: String, in text: String) -> String {
        let key = Array((name + "=").utf8)
        let bytes = Array(text.utf8)
        guard bytes.count > key.count else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            guard byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&"), bytes[index...].starts(with: key) else { continue }
            output.append(contentsOf: key)
            index += key.count
            let start = index
            while index < bytes.count, !Self.endsValue(bytes[index]) { index += 1 }
            if index > start {
                output.append(contentsOf: Array("<redacted>".utf8))
                changed = true
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : text
    }

    private static func endsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: " "),
            UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: "\n"), UInt8(ascii: "\t"):
            true
        default:
            false
        }
    }
}
