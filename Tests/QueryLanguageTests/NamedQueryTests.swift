import QueryLanguage
import Testing

@Suite("Named queries")
struct NamedQueryTests {
    @Test("The seven built-in examples")
    func builtIns() throws {
        let catalog = try NamedQueryCatalog()
        #expect(catalog.names == [
            "farm", "government", "landValueGreaterThan", "landValueLessThan", "residential", "taxRate10853",
            "taxRate10860",
        ])
        #expect(try catalog.resolve(.named("government")).arcGISSQL == "UseType = 'Government'")
        #expect(try catalog.resolve(.named("farm")).arcGISSQL == "UseType = 'Irrigated Farm'")
        #expect(try catalog.resolve(.named("landValueLessThan")).arcGISSQL == "Roll_LandValue < 1000000")
        #expect(try catalog.resolve(.free("TaxRateArea = 10853")) == catalog.resolve(.named("taxRate10853")))
    }

    @Test("An unknown name lists the valid ones and suggests the closest")
    func unknownName() throws {
        let catalog = try NamedQueryCatalog()
        let error = #expect(throws: QueryLanguageError.self) { try catalog.resolve(.named("goverment")) }
        #expect(error?.code == .unknownNamedQuery)
        let names = "farm, government, landValueGreaterThan, landValueLessThan, residential, taxRate10853, taxRate10860"
        #expect(error?.message == "unknown named query 'goverment'; did you mean 'government'? The named queries are: \(names)")
    }

    /// Every form of the message is complete: with no close name the list still follows a separator, and
    /// a catalog without names says so instead of ending on an empty list.
    @Test("An unknown name reads as a whole message with or without a suggestion or names")
    func unknownNameWithoutSuggestionOrNames() throws {
        let catalog = try NamedQueryCatalog()
        let far = #expect(throws: QueryLanguageError.self) { try catalog.resolve(.named("zzzzzz")) }
        #expect(far?.message == "unknown named query 'zzzzzz'; the named queries are: " + catalog.names.joined(separator: ", "))

        let empty = try NamedQueryCatalog(includeBuiltIns: false)
        let none = #expect(throws: QueryLanguageError.self) { try empty.resolve(.named("government")) }
        #expect(none?.code == .unknownNamedQuery)
        #expect(none?.message == "unknown named query 'government'; this worker has no named queries")
    }

    @Test("Free clauses can be switched off")
    func freeClausesOff() throws {
        let catalog = try NamedQueryCatalog(allowFreeClauses: false)
        let error = #expect(throws: QueryLanguageError.self) { try catalog.resolve(.free("UseType = 'Government'")) }
        #expect(error?.code == .freeClausesDisabled)
        #expect(error?.message.contains("government") == true)
        #expect(try catalog.resolve(.named("residential")).arcGISSQL == "UseType = 'Residential'")
    }

    @Test("Operator additions, replacements and mistakes")
    func operatorConfiguration() throws {
        let catalog = try NamedQueryCatalog(additional: [
            NamedQuery(name: "populous", clause: "POP2000 > 1810000"),
            NamedQuery(name: "farm", clause: "UseType IN ('Irrigated Farm', 'Dry Farm')"),
        ])
        #expect(try catalog.resolve(.named("populous")).arcGISSQL == "POP2000 > 1810000")
        #expect(try catalog.resolve(.named("farm")).arcGISSQL == "UseType IN ('Irrigated Farm', 'Dry Farm')")
        #expect(catalog.names.count == 8)

        let onlyOwn = try NamedQueryCatalog(additional: [NamedQuery(name: "a", clause: "a = 1")], includeBuiltIns: false)
        #expect(onlyOwn.names == ["a"])

        let broken = #expect(throws: QueryLanguageError.self) {
            try NamedQueryCatalog(additional: [NamedQuery(name: "bad", clause: "UseType = 'x")])
        }
        #expect(broken?.code == .invalidNamedQuery)
        #expect(broken?.message.contains("'bad'") == true)
        #expect(broken?.message.contains("unterminated string") == true)

        let twice = #expect(throws: QueryLanguageError.self) {
            try NamedQueryCatalog(additional: [NamedQuery(name: "x", clause: "a = 1"), NamedQuery(name: "x", clause: "a = 2")])
        }
        #expect(twice?.code == .invalidNamedQuery)

        let badName = #expect(throws: QueryLanguageError.self) {
            try NamedQueryCatalog(additional: [NamedQuery(name: "no spaces", clause: "a = 1")])
        }
        #expect(badName?.code == .invalidNamedQuery)
    }

    @Test("Resolving against a layer validates the clause")
    func againstLayer() throws {
        let layer = LayerSchema(fields: [
            LayerField(name: "USETYPE", type: .string), LayerField(name: "TAXRATEAREA", type: .integer),
        ])
        let catalog = try NamedQueryCatalog()
        #expect(try catalog.resolve(.named("government"), against: layer).arcGISSQL == "USETYPE = 'Government'")
        let error = #expect(throws: QueryLanguageError.self) { try catalog.resolve(.named("landValueGreaterThan"), against: layer) }
        #expect(error?.code == .unknownField)
        let free = #expect(throws: QueryLanguageError.self) { try catalog.resolve(.free("TaxRateArea = '1'"), against: layer) }
        #expect(free?.code == .typeMismatch)
    }
}
