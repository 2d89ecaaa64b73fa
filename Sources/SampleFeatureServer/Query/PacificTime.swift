import Foundation
import QueryLanguage

/// Pacific wall time (America/Los_Angeles, daylight saving respected) to UTC, for layers served with the
/// `pacific-date-fields` quirk: how such an ArcGIS layer reads the date literals of a where clause.
enum PacificTime {
    /// The zone; nil only if the system has no zone data (every conversion then fails).
    static let zone = TimeZone(identifier: "America/Los_Angeles")

    /// The UTC instant of Pacific wall time `local`. A wall time that occurs twice (the hour repeated in
    /// November) is the first one, in daylight time; one that does not occur (the hour skipped in March) is
    /// read with the daylight offset (02:30 is 09:30 UTC). The engine never sends either: it writes wall
    /// times from UTC instants.
    static func utc(ofWallTime local: CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp {
        guard let zone else {
            throw QueryLanguageError(code: .unknownTimeZone, message: "America/Los_Angeles is not known on this system")
        }
        let wall = local.millisecondsSinceEpoch
        func offset(at milliseconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))) * 1000
        }
        let guess = wall - offset(at: wall)
        guard let utc = CalendarTimestamp(millisecondsSinceEpoch: wall - offset(at: guess)) else {
            throw QueryLanguageError(code: .invalidDate, message: "\(local) is out of range")
        }
        return utc
    }
}
