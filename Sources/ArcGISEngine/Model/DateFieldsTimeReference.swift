import FeatureQuerySupport
import Foundation
import QueryLanguage

/// The time zone an ArcGIS layer's date fields are kept in: its `dateFieldsTimeReference`.
///
/// Query results give dates as UTC epoch milliseconds whatever this says, but a where clause's `DATE` and
/// `TIMESTAMP` literals are read as the layer's wall time. The worker's contract means UTC, so the engine
/// rewrites such literals into this zone (``localTime(of:)``, applied by ``PreparedClauses``). A UTC layer has
/// no value at all (``init(_:)`` returns nil), so its clauses are sent exactly as before.
///
/// This is the only file of the module that imports Foundation: `TimeZone` holds the zone rules (DST dates,
/// historic offsets), which are not worth writing again.
struct DateFieldsTimeReference: Sendable, Hashable {
    /// `timeZone` as the layer sends it: a Windows zone name (`Pacific Standard Time`) or `UTC`.
    var timeZone: String
    /// `timeZoneIANA` (ArcGIS 11.4+), preferred when present.
    var timeZoneIANA: String?
    /// Whether local time follows daylight saving; when false the zone's standard offset is used all year.
    var respectsDaylightSaving: Bool
    /// The zone the names resolve to; nil when neither is known: a clause comparing a date field with a
    /// literal is then refused (guessing would silently select the wrong features).
    let zone: TimeZone?

    /// The IANA name of ``zone`` (for messages and tests, which then need not import Foundation).
    var zoneIdentifier: String? { zone?.identifier }

    init(timeZone: String, timeZoneIANA: String? = nil, respectsDaylightSaving: Bool) {
        self.timeZone = timeZone
        self.timeZoneIANA = timeZoneIANA
        self.respectsDaylightSaving = respectsDaylightSaving
        let iana = timeZoneIANA.flatMap { $0.isEmpty ? nil : $0 } ?? Self.windowsZones[timeZone.lowercased()]
        zone = iana.flatMap { TimeZone(identifier: $0) }
    }

    /// The layer's `dateFieldsTimeReference`; nil when absent, null or UTC (dates already in the contract's terms).
    init?(_ members: [String: ParsedJSON]) {
        guard let reference = members["dateFieldsTimeReference"]?.objectValue,
            let name = reference["timeZone"]?.stringValue ?? reference["timeZoneIANA"]?.stringValue, !name.isEmpty
        else { return nil }
        self.init(
            timeZone: name, timeZoneIANA: reference["timeZoneIANA"]?.stringValue,
            respectsDaylightSaving: reference["respectsDaylightSaving"]?.boolValue ?? false)
        if isUTC { return nil }
    }

    /// Whether the names mean UTC itself (not merely a zone at offset 0 in winter, such as London).
    var isUTC: Bool {
        let name = (timeZoneIANA.flatMap { $0.isEmpty ? nil : $0 } ?? timeZone).lowercased()
        return ["utc", "etc/utc", "gmt", "etc/gmt", "coordinated universal time", "utc+00:00"].contains(name)
    }

    /// The layer's wall time at the UTC instant `utc`: with daylight saving when the layer respects it, at the
    /// zone's standard offset otherwise. Throws ``QueryLanguageError/Code/unknownTimeZone`` naming the zone
    /// when it is not known.
    func localTime(of utc: CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp {
        guard let zone else {
            throw QueryLanguageError(
                code: .unknownTimeZone,
                message: "the layer keeps its dates in time zone '\(timeZoneIANA ?? timeZone)' "
                    + "(dateFieldsTimeReference), which the worker does not know, so it cannot write a date for it; "
                    + "filter on the date field without a date literal, or ask for the zone to be added")
        }
        let milliseconds = utc.millisecondsSinceEpoch
        let instant = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        var offset = zone.secondsFromGMT(for: instant)
        if !respectsDaylightSaving { offset -= Int(zone.daylightSavingTimeOffset(for: instant)) }
        guard let local = CalendarTimestamp(millisecondsSinceEpoch: milliseconds + Int64(offset) * 1000) else {
            throw QueryLanguageError(
                code: .invalidDate, message: "\(utc) is out of range in time zone '\(timeZoneIANA ?? timeZone)'")
        }
        return local
    }

    /// The usual Windows zone names ArcGIS publishes, lowercased, to their IANA zones (CLDR's windowsZones
    /// mapping, territory 001).
    static let windowsZones: [String: String] = [
        "utc": "UTC",
        "pacific standard time": "America/Los_Angeles",
        "mountain standard time": "America/Denver",
        "us mountain standard time": "America/Phoenix",
        "central standard time": "America/Chicago",
        "eastern standard time": "America/New_York",
        "alaskan standard time": "America/Anchorage",
        "alaska standard time": "America/Anchorage",
        "hawaiian standard time": "Pacific/Honolulu",
        "hawaii standard time": "Pacific/Honolulu",
        "gmt standard time": "Europe/London",
        "greenwich standard time": "Atlantic/Reykjavik",
        "w. europe standard time": "Europe/Berlin",
        "central europe standard time": "Europe/Budapest",
        "central european standard time": "Europe/Warsaw",
        "romance standard time": "Europe/Paris",
        "aus eastern standard time": "Australia/Sydney",
        "tokyo standard time": "Asia/Tokyo",
        "india standard time": "Asia/Kolkata",
        "china standard time": "Asia/Shanghai",
    ]
}
