import FeatureQuerySupport
import Foundation
import Testing

/// The one civil-calendar conversion that RFC 3339, HTTP-dates and `DATE` literals share.
@Suite("Civil calendar")
struct CivilCalendarTests {
    @Test(arguments: [
        (Int64(1970), Int64(1), Int64(1), Int64(0)), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (2000, 3, 1, 11_017),
        (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896), (1600, 3, 1, -135_080),
    ])
    func knownDays(_ year: Int64, _ month: Int64, _ day: Int64, _ days: Int64) {
        #expect(CivilCalendar.daysFromCivil(year: year, month: month, day: day) == days)
        #expect(CivilCalendar.civil(fromDays: days) == (year, month, day))
    }

    @Test func roundTripsAndAgreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var random = SplitMix64(seed: 1582)
        for _ in 0..<2_000 {
            let days = Int64.random(in: -719_162...2_932_896, using: &random)
            let (year, month, day) = CivilCalendar.civil(fromDays: days)
            #expect(CivilCalendar.daysFromCivil(year: year, month: month, day: day) == days)
            #expect((1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day))
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            if year >= 1583 {  // Foundation's Gregorian calendar switches to Julian before October 1582.
                #expect(parts.year == Int(year) && parts.month == Int(month) && parts.day == Int(day), "day \(days)")
            }
        }
    }

    @Test func leapYears() {
        #expect(CivilCalendar.isLeapYear(2000) && CivilCalendar.isLeapYear(2024) && CivilCalendar.isLeapYear(-4))
        #expect(!CivilCalendar.isLeapYear(1900) && !CivilCalendar.isLeapYear(2023) && !CivilCalendar.isLeapYear(2100))
        #expect(CivilCalendar.daysInMonth(year: 1900, month: 2) == 28 && CivilCalendar.daysInMonth(year: 2000, month: 2) == 29)
    }
}
