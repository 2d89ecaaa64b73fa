/// Reads a top-level string member out of a small JSON text without parsing the rest: enough for the
/// outcome messages' `status` and `requestId` and the worker's log lines, read while the worker runs on
/// the same CPU (a full parse of 20,000 results would be charged to the worker's side).
///
/// It finds the first `"name"` followed by a colon and returns the string value (escapes are kept as
/// written: the benchmark's ids and statuses have none). Nested members of the same name would be found too
/// if they came first; in the messages read here the top-level member always comes first.
enum OutcomeFields {
    static func string(_ name: String, in bytes: [UInt8]) -> String? {
        let key = Array("\"\(name)\"".utf8)
        guard bytes.count > key.count else { return nil }
        var start = 0
        while let found = firstIndex(of: key, in: bytes, from: start) {
            var index = found + key.count
            index = skipSpaces(bytes, index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                start = found + 1
                continue
            }
            index = skipSpaces(bytes, index + 1)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end <= bytes.count else { return nil }
            return String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
        }
        return nil
    }

    private static func skipSpaces(_ bytes: [UInt8], _ from: Int) -> Int {
        var index = from
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        return index
    }

    private static func firstIndex(of key: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = key.first, bytes.count >= key.count else { return nil }
        var index = start
        let last = bytes.count - key.count
        while index <= last {
            if bytes[index] == first {
                var matches = true
                for offset in 1..<key.count where bytes[index + offset] != key[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }
}
