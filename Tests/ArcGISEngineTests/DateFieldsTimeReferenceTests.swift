import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

@testable import ArcGISEngine

/// A layer's `dateFieldsTimeReference`: how it is read from metadata, the UTC-to-local conversion of date
/// literals (winter and summer, the hours around the US changes, a layer that ignores daylight saving), that a
/// UTC layer's requests are unchanged byte for byte, and that an unknown zone refuses dated clauses.
@Suite("Date fields' time reference")
struct DateFieldsTimeReferenceTests {
    static let pacific = DateFieldsTimeReference(
        timeZone: "Pacific Standard Time", timeZoneIANA: "America/Los_Angeles", respectsDaylightSaving: true)

    static func timestamp(_ text: String) throws -> CalendarTimestamp {
        try #require(CalendarTimestamp(parsing: text))
    }

    static func local(_ utc: String, in reference: DateFieldsTimeReference = pacific) throws -> String {
        try reference.localTime(of: try timestamp(utc)).description
    }

    @Test("Winter is UTC−8, summer UTC−7")
    func winterAndSummer() throws {
        #expect(try Self.local("2020-01-15 12:00:00") == "2020-01-15 04:00:00")
        #expect(try Self.local("2020-07-15 12:00:00.500") == "2020-07-15 05:00:00.500")
        #expect(try Self.local("2020-01-01 03:00:00") == "2019-12-31 19:00:00")
    }

    @Test("Around the spring change (2020-03-08 10:00 UTC) and the autumn change (2020-11-01 09:00 UTC)")
    func changeDays() throws {
        #expect(try Self.local("2020-03-08 09:59:59") == "2020-03-08 01:59:59")
        #expect(try Self.local("2020-03-08 10:00:00") == "2020-03-08 03:00:00")
        #expect(try Self.local("2020-03-09 00:00:00") == "2020-03-08 17:00:00")
        #expect(try Self.local("2020-11-01 08:59:59") == "2020-11-01 01:59:59")
        #expect(try Self.local("2020-11-01 09:00:00") == "2020-11-01 01:00:00")
        // A date-only literal is midnight UTC: the evening before in Los Angeles.
        #expect(try Self.local("2020-03-08") == "2020-03-07 16:00:00")
    }

    @Test("respectsDaylightSaving false keeps the standard offset all year")
    func noDaylightSaving() throws {
        let standard = DateFieldsTimeReference(timeZone: "Pacific Standard Time", respectsDaylightSaving: false)
        #expect(try Self.local("2020-07-15 12:00:00", in: standard) == "2020-07-15 04:00:00")
        #expect(try Self.local("2020-03-08 10:00:00", in: standard) == "2020-03-08 02:00:00")
        #expect(try Self.local("2020-01-15 12:00:00", in: standard) == "2020-01-15 04:00:00")
    }

    @Test("Windows names map to IANA zones; the IANA name wins when both are given")
    func windowsNames() throws {
        let tokyo = DateFieldsTimeReference(timeZone: "Tokyo Standard Time", respectsDaylightSaving: false)
        #expect(try Self.local("2020-07-15 12:00:00", in: tokyo) == "2020-07-15 21:00:00")
        let berlin = DateFieldsTimeReference(timeZone: "W. Europe Standard Time", respectsDaylightSaving: true)
        #expect(try Self.local("2020-07-15 12:00:00", in: berlin) == "2020-07-15 14:00:00")
        let london = DateFieldsTimeReference(timeZone: "GMT Standard Time", respectsDaylightSaving: true)
        #expect(try Self.local("2020-07-15 12:00:00", in: london) == "2020-07-15 13:00:00")
        let both = DateFieldsTimeReference(timeZone: "Eastern Standard Time", timeZoneIANA: "Asia/Kolkata", respectsDaylightSaving: false)
        #expect(try Self.local("2020-07-15 12:00:00", in: both) == "2020-07-15 17:30:00")
        for name in ["UTC", "Pacific Standard Time", "Mountain Standard Time", "Central Standard Time", "Eastern Standard Time",
            "Alaskan Standard Time", "Hawaiian Standard Time", "GMT Standard Time", "W. Europe Standard Time",
            "Central Europe Standard Time", "AUS Eastern Standard Time", "Tokyo Standard Time", "India Standard Time",
            "China Standard Time"]
        {
            #expect(DateFieldsTimeReference(timeZone: name, respectsDaylightSaving: true).zone != nil, "\(name)")
        }
    }

    static func metadata(_ reference: String) throws -> LayerMetadata {
        let json = #"{"id":1,"name":"Sales","type":"Table","objectIdField":"OBJECTID","fields":["#
            + #"{"name":"OBJECTID","type":"esriFieldTypeOID"},{"name":"SaleDate","type":"esriFieldTypeDate"}],"#
            + #""capabilities":"Query","maxRecordCount":1000"# + reference + "}"
        return try ArcGISResponse.layerMetadata(bodyBytes(json), url: "http://h/arcgis/rest/services/S/FeatureServer/1")
    }

    @Test("Metadata: absent, null and UTC mean UTC; a zone is read with its IANA name and daylight flag")
    func parsing() throws {
        #expect(try Self.metadata("").dateFieldsTimeReference == nil)
        #expect(try Self.metadata(#","dateFieldsTimeReference":null"#).dateFieldsTimeReference == nil)
        #expect(
            try Self.metadata(#","dateFieldsTimeReference":{"timeZone":"UTC","respectsDaylightSaving":false}"#)
                .dateFieldsTimeReference == nil)
        let pacific = try Self.metadata(
            #","dateFieldsTimeReference":{"timeZone":"Pacific Standard Time","timeZoneIANA":"America/Los_Angeles","#
                + #""respectsDaylightSaving":true}"#
        ).dateFieldsTimeReference
        #expect(pacific == Self.pacific)
        #expect(pacific?.zoneIdentifier == "America/Los_Angeles")
        let eastern = try Self.metadata(
            #","dateFieldsTimeReference":{"timeZone":"Eastern Standard Time","respectsDaylightSaving":false}"#
        ).dateFieldsTimeReference
        #expect(eastern?.zoneIdentifier == "America/New_York")
        #expect(eastern?.respectsDaylightSaving == false)
    }

    static let clause = "SaleDate >= TIMESTAMP '2020-03-08 10:00:00' AND SaleDate < DATE '2020-03-09'"

    static func encodedWhere(_ layer: LayerMetadata, _ text: String) throws -> String {
        let query = ServiceQuery(whereClause: try WhereClause(text), result: .count)
        let checked = try QueryCheck.check(query, for: layer)
        return String(decoding: try #require(checked.encoded), as: UTF8.self)
    }

    @Test("A UTC layer's where clause is sent exactly as before; a Pacific layer's in its wall time, from the cache")
    func encodedRequests() throws {
        let utc = try Self.metadata("")
        let expected = try WhereClause(Self.clause).validated(against: utc.schema).arcGISSQL
        var reference: [UInt8] = []
        HTTPRequest.appendFormEncoded(expected, to: &reference)
        #expect(try Self.encodedWhere(utc, Self.clause) == String(decoding: reference, as: UTF8.self))
        var pacific = try Self.metadata("")
        pacific.dateFieldsTimeReference = Self.pacific
        for _ in 0..<2 {
            let sent = PercentDecoding.decode(try Self.encodedWhere(pacific, Self.clause), plusAsSpace: true)
            #expect(sent == "SaleDate >= TIMESTAMP '2020-03-08 03:00:00' AND SaleDate < TIMESTAMP '2020-03-08 17:00:00'")
        }
        #expect(pacific.preparedClauses.clauses.count == 1)
        // The checked clause keeps the contract's (UTC) meaning.
        let checked = try QueryCheck.validated(ServiceQuery(whereClause: try WhereClause(Self.clause), result: .count), for: pacific)
        #expect(checked.whereClause?.arcGISSQL == expected)
    }

    @Test("An unknown zone refuses a clause comparing a date field with a literal, naming the zone; others pass")
    func unknownZone() throws {
        var layer = try Self.metadata(
            #","dateFieldsTimeReference":{"timeZone":"Mars Standard Time","respectsDaylightSaving":true}"#)
        #expect(layer.dateFieldsTimeReference?.zone == nil)
        #expect {
            try Self.encodedWhere(layer, Self.clause)
        } throws: { error in
            guard let error = error as? FeatureServiceError else { return false }
            return error.code == .invalidQuery && error.message.contains("Mars Standard Time")
        }
        #expect(try Self.encodedWhere(layer, "OBJECTID > 3 AND SaleDate IS NOT NULL").contains("OBJECTID"))
        layer.dateFieldsTimeReference = nil
        #expect(try Self.encodedWhere(layer, Self.clause).contains("2020-03-08"))
    }
}
