import FeatureQuerySupport

/// HTTP-dates (RFC 9110 §5.6.7), for `Retry-After`: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete forms recipients must still accept, RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Foundation-free.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 UTC, or nil for text that is not an HTTP-date.
    package static func secondsSince1970(_ text: String) -> Int64? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" })
        guard (4...7).contains(tokens.count) else { return nil }
        var month: Int?
        var numbers: [Substring] = []
        var time: (Int, Int, Int)?
        for token in tokens {
            if token.contains(":") {
                guard time == nil, let parsed = clock(token) else { return nil }
                time = parsed
            } else if token.allSatisfy(\.isASCIIDigit) {
                numbers.append(token)
            } else if let index = months.firstIndex(of: token.lowercased()) {
                guard month == nil else { return nil }
                month = index + 1
            } else if token.uppercased() == "GMT" || token.uppercased() == "UTC" || isWeekday(token) {
                continue
            } else {
                return nil
            }
        }
        // In all three forms the day comes before the year.
        guard let month, let (hour, minute, second) = time, numbers.count == 2,
            numbers[0].count <= 2, let day = Int(numbers[0]), let rawYear = Int(numbers[1])
        else { return nil }
        let year: Int
        switch numbers[1].count {
        case 4: year = rawYear
        case 2: year = rawYear < 70 ? 2000 + rawYear : 1900 + rawYear  // RFC 850's two-digit years
        default: return nil
        }
        guard (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func clock(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    private static func isWeekday(_ token: Substring) -> Bool {
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let lower = token.lowercased()
        return names.contains { lower == $0 || (lower.hasPrefix($0) && lower.hasSuffix("day")) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month)))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
    }
}
