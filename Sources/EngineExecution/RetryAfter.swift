import FeatureQuerySupport

/// `Retry-After` (RFC 9110 §10.2.3) as every engine reads it.
package enum RetryAfter {
    /// How long a `Retry-After` value asks the client to wait: delta seconds (`120`) or an HTTP-date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`, also the obsolete RFC 850 and asctime forms) measured from `now`.
    ///
    /// A date in the past means no wait (`.zero`); a value that is absent or unreadable gives nil.
    ///
    /// - Parameter now: seconds since 1970 UTC.
    package static func delay(_ header: String?, now: Int64 = WallClock.nowSeconds()) -> Duration? {
        guard let value = header.map(trimmed), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Up to 18 digits cannot overflow Int64; longer is nonsense.
            guard value.utf8.count <= 18, let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.secondsSince1970(value) else { return nil }
        let (difference, overflow) = date.subtractingReportingOverflow(now)
        guard !overflow else { return nil }
        return .seconds(max(0, difference))
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }
}
