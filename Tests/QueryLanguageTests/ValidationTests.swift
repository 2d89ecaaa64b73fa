import QueryLanguage
import Testing

@Suite("Validation against a layer's fields")
struct ValidationTests {
    /// The LA County parcels layer's fields the seed uses, as layer metadata lists them, plus a date and a
    /// geometry field.
    static let parcels = LayerSchema(metadataFields: [
        ("OBJECTID", "esriFieldTypeOID"), ("UseType", "esriFieldTypeString"), ("TaxRateArea", "esriFieldTypeInteger"),
        ("Roll_LandValue", "esriFieldTypeDouble"), ("Roll_Year", "esriFieldTypeSmallInteger"),
        ("LastSaleDate", "esriFieldTypeDate"), ("GlobalID", "esriFieldTypeGlobalID"), ("Shape", "esriFieldTypeGeometry"),
    ])

    @Test("Field types map from Esri names", arguments: FieldType.allCases)
    func esriNames(type: FieldType) {
        #expect(FieldType(esriName: type.esriName) == type)
    }

    @Test("Unknown Esri types are not field types")
    func unknownEsriTypes() {
        #expect(FieldType(esriName: "esriFieldTypeGeometry") == nil)
        #expect(FieldType(esriName: "esriFieldTypeBlob") == nil)
        #expect(Self.parcels.unusableFields == ["Shape": "esriFieldTypeGeometry"])
    }

    static let accepted: [(input: String, validated: String)] = [
        ("usetype = 'Government'", "UseType = 'Government'"),
        ("TAXRATEAREA = 10853", "TaxRateArea = 10853"),
        ("roll_landvalue > 1000000 AND UseType IN ('Residential', 'Irrigated Farm')",
            "Roll_LandValue > 1000000 AND UseType IN ('Residential', 'Irrigated Farm')"),
        ("LastSaleDate = '2020-01-31'", "LastSaleDate = DATE '2020-01-31'"),
        ("LastSaleDate BETWEEN '2020-01-01' AND '2020-06-30 12:00:00'",
            "LastSaleDate BETWEEN DATE '2020-01-01' AND TIMESTAMP '2020-06-30 12:00:00'"),
        ("LastSaleDate < CURRENT_DATE", "LastSaleDate < CURRENT_DATE"),
        ("Roll_Year + 1 > TaxRateArea / 2", "Roll_Year + 1 > TaxRateArea / 2"),
        ("UPPER(usetype) LIKE 'RES%'", "UPPER(UseType) LIKE 'RES%'"),
        ("CHAR_LENGTH(UseType) > 3 AND SUBSTRING(UseType FROM 1 FOR 3) = 'Res'",
            "CHAR_LENGTH(UseType) > 3 AND SUBSTRING(UseType FROM 1 FOR 3) = 'Res'"),
        ("CAST(TaxRateArea AS VARCHAR(10)) = '10853'", "CAST(TaxRateArea AS VARCHAR(10)) = '10853'"),
        ("CAST('2020-01-01' AS DATE) < LastSaleDate", "CAST('2020-01-01' AS DATE) < LastSaleDate"),
        ("GlobalID = '{8F2D3A0B-6C1E-4A8B-9D2F-1E3C5B7A9D0F}'", "GlobalID = '{8F2D3A0B-6C1E-4A8B-9D2F-1E3C5B7A9D0F}'"),
        ("OBJECTID IS NOT NULL AND NOT UseType = 'Vacant'", "OBJECTID IS NOT NULL AND NOT UseType = 'Vacant'"),
        ("1 = 1", "1 = 1"),
    ]

    @Test("Valid clauses come back in the layer's spelling", arguments: accepted)
    func accepts(input: String, validated: String) throws {
        let clause = try WhereClause(input).validated(against: Self.parcels)
        #expect(clause.arcGISSQL == validated)
        #expect(try WhereClause(clause.arcGISSQL).validated(against: Self.parcels) == clause)
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        var input: String
        var code: QueryLanguageError.Code
        var column: Int
        var says: String
        var testDescription: String { input }
    }

    static let rejected: [Rejection] = [
        Rejection(input: "UseTyp = 'Government'", code: .unknownField, column: 1, says: "did you mean 'UseType'?"),
        Rejection(input: "TaxRateArea = 1 AND LandValue > 5", code: .unknownField, column: 21,
            says: "unknown field 'LandValue' at column 21; did you mean 'Roll_LandValue'?"),
        Rejection(input: "Owner = 'x'", code: .unknownField, column: 1, says: "the layer's fields are OBJECTID, UseType"),
        Rejection(input: "Shape IS NULL", code: .unusableField, column: 1, says: "esriFieldTypeGeometry"),
        Rejection(input: "UseType = 5", code: .typeMismatch, column: 11, says: "put the value in single quotes: '5'"),
        Rejection(input: "TaxRateArea = '10853'", code: .typeMismatch, column: 15,
            says: "write the number without quotes: 10853"),
        Rejection(input: "TaxRateArea = 'ten'", code: .typeMismatch, column: 15, says: "the string 'ten'"),
        Rejection(input: "LastSaleDate > 'yesterday'", code: .typeMismatch, column: 16,
            says: "'yesterday' is not a date: write DATE 'yyyy-mm-dd'"),
        Rejection(input: "LastSaleDate > '2020-02-30'", code: .typeMismatch, column: 16, says: "is not a date"),
        Rejection(input: "LastSaleDate > 1577836800000", code: .typeMismatch, column: 16, says: "write dates as DATE"),
        Rejection(input: "UseType IN ('A', 2)", code: .typeMismatch, column: 18, says: "number 2"),
        Rejection(input: "Roll_LandValue BETWEEN 1 AND 'x'", code: .typeMismatch, column: 30, says: "string 'x'"),
        Rejection(input: "TaxRateArea LIKE '108%'", code: .typeMismatch, column: 1, says: "LIKE matches strings"),
        Rejection(input: "UPPER(TaxRateArea) = 'X'", code: .typeMismatch, column: 7, says: "UPPER works on strings"),
        Rejection(input: "UseType + 1 > 2", code: .typeMismatch, column: 1, says: "+ works on numbers"),
        Rejection(input: "-UseType < 0", code: .typeMismatch, column: 2, says: "minus applies to numbers"),
        Rejection(input: "CAST(LastSaleDate AS INTEGER) > 1", code: .typeMismatch, column: 6, says: "CAST can't turn"),
        Rejection(input: "UseType = TaxRateArea", code: .typeMismatch, column: 11, says: "string field UseType"),
    ]

    @Test("Unknown fields and type mismatches are errors that say what to write", arguments: rejected)
    func rejects(_ example: Rejection) throws {
        let clause = try WhereClause(example.input)
        let error = #expect(throws: QueryLanguageError.self) { try clause.validated(against: Self.parcels) }
        #expect(error?.code == example.code)
        #expect(error?.column == example.column)
        #expect(error?.message.contains(example.says) == true, "message: \(error?.message ?? "none")")
    }

    @Test("Closest-name suggestions")
    func suggestions() throws {
        let layer = LayerSchema(fields: [
            LayerField(name: "POP2000", type: .integer), LayerField(name: "STATE_NAME", type: .string),
            LayerField(name: "SUB_REGION", type: .string),
        ])
        let error = #expect(throws: QueryLanguageError.self) {
            try WhereClause("POP200 > 1810000").validated(against: layer)
        }
        #expect(error?.message.contains("did you mean 'POP2000'?") == true)
        let other = #expect(throws: QueryLanguageError.self) {
            try WhereClause("STATENAME = 'Texas'").validated(against: layer)
        }
        #expect(other?.message.contains("did you mean 'STATE_NAME'?") == true)
    }

    @Test("An expression built in code validates, with errors that have no column")
    func builtInCode() throws {
        let expression = FilterExpression(.comparison(.equal, FilterExpression(.field("usetype")),
            FilterExpression(.literal(.integer(1)))))
        let clause = try WhereClause(expression: expression)
        let error = #expect(throws: QueryLanguageError.self) { try clause.validated(against: Self.parcels) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.column == nil)
    }
}
