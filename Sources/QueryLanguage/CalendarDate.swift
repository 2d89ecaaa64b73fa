import FeatureQuerySupport

/// A calendar date (proleptic Gregorian, UTC), the value of a `DATE 'yyyy-mm-dd'` literal.
///
/// Kept as year, month and day rather than a time stamp so that rendering gives back exactly what was
/// written; ``millisecondsSinceEpoch`` gives the instant ArcGIS date fields are compared with (midnight UTC).
package struct CalendarDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    /// A date, or nil when it does not exist (month 13, 30 February, year 0 or past 9999).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `yyyy-mm-dd` exactly (four-digit year, two-digit month and day).
    package init?(parsing text: some StringProtocol) {
        var reader = DigitReader(Array(text.utf8))
        guard let date = reader.readDate(), reader.isAtEnd else { return nil }
        self = date
    }

    /// `yyyy-mm-dd`.
    package var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Days since 1970-01-01 (negative before).
    package var daysSinceEpoch: Int64 {
        CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// Midnight UTC of this date, in milliseconds since 1970-01-01: how ArcGIS stores dates.
    package var millisecondsSinceEpoch: Int64 { daysSinceEpoch * 86_400_000 }

    /// The date of a day count since 1970-01-01, or nil outside years 1 to 9999.
    package init?(daysSinceEpoch days: Int64) {
        guard days >= -719_162, days <= 2_932_896 else { return nil }
        let (y, m, d) = CivilCalendar.civil(fromDays: days)
        self.init(year: Int(y), month: Int(m), day: Int(d))
    }

    package static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month)))
    }
}

/// A date and time of day (UTC, millisecond precision), the value of a `TIMESTAMP '...'` literal.
package struct CalendarTimestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let date: CalendarDate
    package let hour: Int
    package let minute: Int
    package let second: Int
    package let millisecond: Int

    package init?(date: CalendarDate, hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// Reads `yyyy-mm-dd`, optionally followed by a space or `T` and `hh:mm:ss`, an optional fraction of a
    /// second (digits past milliseconds are dropped) and an optional `Z`. Other time zones are refused:
    /// ArcGIS dates are UTC.
    package init?(parsing text: some StringProtocol) {
        var reader = DigitReader(Array(text.utf8))
        guard let date = reader.readDate() else { return nil }
        if reader.isAtEnd {
            self.init(date: date, hour: 0, minute: 0, second: 0)
            return
        }
        guard reader.skip(0x20) || reader.skip(UInt8(ascii: "T")) || reader.skip(UInt8(ascii: "t")),
            let hour = reader.readDigits(2), reader.skip(UInt8(ascii: ":")),
            let minute = reader.readDigits(2), reader.skip(UInt8(ascii: ":")),
            let second = reader.readDigits(2)
        else { return nil }
        var millisecond = 0
        if reader.skip(UInt8(ascii: ".")) {
            guard let fraction = reader.readFraction() else { return nil }
            millisecond = fraction
        }
        _ = reader.skip(UInt8(ascii: "Z")) || reader.skip(UInt8(ascii: "z"))
        guard reader.isAtEnd else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }

    /// The instant, in milliseconds since 1970-01-01 UTC.
    package var millisecondsSinceEpoch: Int64 {
        date.millisecondsSinceEpoch
            + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// The timestamp of an instant, or nil outside years 1 to 9999.
    package init?(millisecondsSinceEpoch ms: Int64) {
        let (days, remainder) = ms.quotientAndRemainder(dividingBy: 86_400_000)
        let day = remainder < 0 ? days - 1 : days
        let inDay = Int(remainder < 0 ? remainder + 86_400_000 : remainder)
        guard let date = CalendarDate(daysSinceEpoch: day) else { return nil }
        self.init(
            date: date, hour: inDay / 3_600_000, minute: inDay / 60_000 % 60, second: inDay / 1000 % 60,
            millisecond: inDay % 1000)
    }

    /// `yyyy-mm-dd hh:mm:ss` (with `.mmm` when the milliseconds are not zero): ArcGIS's form.
    package var description: String { text(separator: " ", zone: "") }

    /// `yyyy-mm-ddThh:mm:ssZ` (with `.mmm` when needed): RFC 3339, CQL2's form.
    var rfc3339: String { text(separator: "T", zone: "Z") }

    private func text(separator: String, zone: String) -> String {
        var text = date.description + separator + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if millisecond != 0 { text += "." + pad(millisecond, 3) }
        return text + zone
    }

    package static func < (lhs: CalendarTimestamp, rhs: CalendarTimestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }
}

/// Zero-padded decimal digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Reads the fixed-width digit groups of dates and times.
private struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func readDigits(_ count: Int) -> Int? {
        guard bytes.count - index >= count else { return nil }
        var value = 0
        for _ in 0..<count {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return value
    }

    /// One to nine digits of a fraction of a second, as whole milliseconds (further digits dropped).
    mutating func readFraction() -> Int? {
        var milliseconds = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - 0x30) }
            digits += 1
            index += 1
        }
        guard (1...9).contains(digits) else { return nil }
        for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        return milliseconds
    }

    mutating func readDate() -> CalendarDate? {
        guard let year = readDigits(4), skip(UInt8(ascii: "-")), let month = readDigits(2),
            skip(UInt8(ascii: "-")), let day = readDigits(2)
        else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }
}
