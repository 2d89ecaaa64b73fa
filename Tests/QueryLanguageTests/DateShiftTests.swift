import QueryLanguage
import Testing

/// ``WhereClause/shiftingDateLiterals(schema:_:)``: which literals move (those compared with a date field, on
/// either side, in `BETWEEN` and `IN`), into what (`DATE` as midnight UTC, always written as a `TIMESTAMP`),
/// and what is refused. The shift here is a fixed −8 hours; the engine's zone rules are tested with the engine.
@Suite("Date literals shifted into a layer's zone")
struct DateShiftTests {
    static let schema = LayerSchema(fields: [
        LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "SaleDate", type: .date),
        LayerField(name: "DocType", type: .string),
    ])

    static func minusEight(_ utc: CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp {
        guard let local = CalendarTimestamp(millisecondsSinceEpoch: utc.millisecondsSinceEpoch - 8 * 3_600_000) else {
            throw QueryLanguageError(code: .invalidDate, message: "out of range")
        }
        return local
    }

    static func shifted(_ text: String) throws -> String {
        try WhereClause(text).validated(against: schema).shiftingDateLiterals(schema: schema, minusEight).arcGISSQL
    }

    @Test("Timestamps compared with a date field move, on either side of the operator")
    func comparisons() throws {
        #expect(
            try Self.shifted("saledate >= TIMESTAMP '2020-01-01 06:00:00' AND TIMESTAMP '2020-01-02 00:00:00.250' > SaleDate")
                == "SaleDate >= TIMESTAMP '2019-12-31 22:00:00' AND TIMESTAMP '2020-01-01 16:00:00.250' > SaleDate")
    }

    @Test("A DATE is midnight UTC, written as the local TIMESTAMP; a date string too")
    func dates() throws {
        #expect(try Self.shifted("SaleDate < DATE '2020-03-01'") == "SaleDate < TIMESTAMP '2020-02-29 16:00:00'")
        #expect(try Self.shifted("SaleDate = '2020-03-01'") == "SaleDate = TIMESTAMP '2020-02-29 16:00:00'")
    }

    @Test("BETWEEN and IN on a date field move each literal")
    func betweenAndIn() throws {
        #expect(
            try Self.shifted("SaleDate BETWEEN DATE '2020-01-01' AND TIMESTAMP '2020-01-01 12:00:00'")
                == "SaleDate BETWEEN TIMESTAMP '2019-12-31 16:00:00' AND TIMESTAMP '2020-01-01 04:00:00'")
        #expect(
            try Self.shifted("SaleDate NOT IN (DATE '2020-01-01', TIMESTAMP '2020-01-01 08:00:00')")
                == "SaleDate NOT IN (TIMESTAMP '2019-12-31 16:00:00', TIMESTAMP '2020-01-01 00:00:00')")
    }

    @Test("A clause without date literals is written as before")
    func untouched() throws {
        for text in ["DocType = 'Grant Deed' AND OBJECTID > 3", "SaleDate IS NULL OR NOT (DocType LIKE 'V%')", "1=1"] {
            let validated = try WhereClause(text).validated(against: Self.schema)
            #expect(try validated.shiftingDateLiterals(schema: Self.schema, Self.minusEight).arcGISSQL == validated.arcGISSQL)
        }
    }

    @Test("A date literal not compared directly with a date field is refused when the clause reads one")
    func strayLiteralRefused() throws {
        #expect {
            try Self.shifted("CAST(SaleDate AS DATE) = DATE '2020-01-01'")
        } throws: { ($0 as? QueryLanguageError)?.code == .typeMismatch }
        // Without a date field the zone does not matter.
        #expect(try Self.shifted("DATE '2020-01-01' < DATE '2020-01-02'") == "DATE '2020-01-01' < DATE '2020-01-02'")
    }

    @Test("A failing shift refuses the clause with its error; it is not called without date literals")
    func failingShift() throws {
        let refuse: (CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp = { _ throws(QueryLanguageError) in
            throw QueryLanguageError(code: .unknownTimeZone, message: "zone 'Mars Standard Time'")
        }
        let dated = try WhereClause("UPPER(DocType) = 'X' OR SaleDate > DATE '2020-01-01'").validated(against: Self.schema)
        #expect {
            try dated.shiftingDateLiterals(schema: Self.schema, refuse)
        } throws: { ($0 as? QueryLanguageError)?.message.contains("Mars Standard Time") == true }
        let plain = try WhereClause("DocType = 'X'").validated(against: Self.schema)
        #expect(try plain.shiftingDateLiterals(schema: Self.schema, refuse).arcGISSQL == plain.arcGISSQL)
    }
}
