import Testing

@testable import QueryLanguage

/// ``WhereClause/renamingFields(_:)``: every field, wherever it stands, takes the spelling given, and nothing
/// else in the clause changes.
@Suite("Renaming fields")
struct RenamingFieldsTests {
    static func clause(st: String, city: String, pop2000: String, pop1990: String) throws -> WhereClause {
        try WhereClause(
            "\(st) = 'CA' AND (UPPER(\(city)) LIKE 'SAN%' OR \(pop2000) BETWEEN 10 AND \(pop1990) * 2) AND NOT \(st) IN ('st', 'b') "
                + "AND CHAR_LENGTH(TRIM(\(city))) > 3 AND SUBSTRING(\(st) FROM 1 FOR 1) = 'C' AND other IS NULL")
    }

    @Test func everyFieldTakesTheGivenSpellingWherever() throws {
        let written = try Self.clause(st: "st", city: "city_name", pop2000: "pop2000", pop1990: "Pop1990")
        let spelling = ["st": "ST", "city_name": "CITY_NAME", "pop2000": "POP2000", "Pop1990": "POP1990"]
        let renamed = written.renamingFields { spelling[$0] }
        let declared = try Self.clause(st: "ST", city: "CITY_NAME", pop2000: "POP2000", pop1990: "POP1990")
        #expect(renamed.arcGISSQL == declared.arcGISSQL)
        #expect(renamed.referencedFields == ["ST", "CITY_NAME", "POP2000", "POP1990", "other"])
        #expect(renamed.arcGISSQL.contains("'st'"), "string literals are not fields")
        #expect(renamed.expression.depth == written.expression.depth)
    }
}
