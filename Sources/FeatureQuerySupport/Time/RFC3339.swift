/// RFC 3339 date-times as the contract writes and reads them, without Foundation.
///
/// Instants are milliseconds since the Unix epoch (`Int64`), as Kafka timestamps are. Reading accepts what
/// JSON Schema's `date-time` format accepts (`2025-06-01T12:00:00Z`, `2025-06-01t12:00:00.5+02:00`): a
/// four-digit year from 0001, a real calendar day, a time zone (`Z` or `±hh:mm`), any number of fraction
/// digits (kept to the millisecond, truncated). Leap seconds (`:60`) are refused, as the schema validator
/// refuses them, so that the worker and the schema agree on every value. Writing always gives UTC with
/// milliseconds: `2025-06-01T12:00:00.000Z`.
package enum RFC3339 {
    /// The instant `text` names, in milliseconds since the epoch; `nil` when it is not an RFC 3339 date-time.
    package static func milliseconds(from text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { parse($0) }
    }

    /// `2025-06-01T12:00:00.000Z` for `milliseconds` since the epoch (clamped to the years 0001–9999).
    package static func string(fromMilliseconds milliseconds: Int64) -> String {
        let lowest = CivilCalendar.daysFromCivil(year: 1, month: 1, day: 1) * 86_400_000
        let highest = (CivilCalendar.daysFromCivil(year: 9999, month: 12, day: 31) + 1) * 86_400_000 - 1
        let value = min(max(milliseconds, lowest), highest)
        let days = CivilCalendar.floorDivide(value, 86_400_000)
        let inDay = value - days * 86_400_000
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        var text = ""
        text.reserveCapacity(24)
        append(year, width: 4, to: &text)
        text += "-"
        append(month, width: 2, to: &text)
        text += "-"
        append(day, width: 2, to: &text)
        text += "T"
        append(inDay / 3_600_000, width: 2, to: &text)
        text += ":"
        append(inDay / 60_000 % 60, width: 2, to: &text)
        text += ":"
        append(inDay / 1000 % 60, width: 2, to: &text)
        text += "."
        append(inDay % 1000, width: 3, to: &text)
        text += "Z"
        return text
    }

    // MARK: Reading

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        func digits(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t")),
            let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var millisecond: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var count = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if count < 3 { millisecond = millisecond * 10 + Int64(bytes[index] - 0x30) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { millisecond *= 10 }
        }
        let offsetMinutes: Int64
        if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else {
            guard index < bytes.count else { return nil }
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect(UInt8(ascii: "+"), UInt8(ascii: "-")), let offsetHour = digits(2), expect(UInt8(ascii: ":")),
                let offsetMinute = digits(2), offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard index == bytes.count else { return nil }
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        let local = ((days * 24 + hour) * 60 + minute) * 60 + second
        return (local - offsetMinutes * 60) * 1000 + millisecond
    }

    private static func append(_ value: Int64, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.utf8.count < width { text += String(repeating: "0", count: width - digits.utf8.count) }
        text += digits
    }
}
