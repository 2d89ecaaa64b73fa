import QueryLanguage
import Testing

/// Any string, of any length or encoding, gives a clause or a typed error: no crash, no hang, no
/// quadratic blow-up. (Typed throws make "typed" a compile-time fact; these tests cover the rest.)
@Suite("Bad input and limits")
struct BadInputTests {
    /// The code of the error `body` throws; nil when it throws none (or, which would fail the test, another type).
    static func code(_ body: () throws -> Void) -> QueryLanguageError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? QueryLanguageError)?.code
        }
    }

    @Test("A 1 MB clause is refused by the size limit before it is read")
    func oneMegabyte() {
        let huge = "UseType = '" + String(repeating: "x", count: 1_048_576)
        #expect(Self.code { _ = try WhereClause(huge) } == .clauseTooLong)
        #expect(Self.code { _ = try WhereClause(utf8: Array(huge.utf8)) } == .clauseTooLong)
        let raised = ClauseLimits(maxClauseBytes: 10_000_000)
        #expect(raised.maxClauseBytes == ClauseLimits.byteCeiling)
        #expect(Self.code { _ = try WhereClause(huge, limits: raised) } == .clauseTooLong)
        // Garbage bytes of that size are refused the same way, before the encoding is checked.
        #expect(Self.code { _ = try WhereClause(utf8: [UInt8](repeating: 0xFF, count: 1_048_576)) } == .clauseTooLong)
    }

    @Test("Limits are configurable")
    func configurableLimits() throws {
        let tight = ClauseLimits(maxClauseBytes: 10, maxDepth: 3, maxTokens: 5, maxListItems: 2, maxIdentifierBytes: 4)
        #expect(Self.code { _ = try WhereClause("a = 12345678", limits: tight) } == .clauseTooLong)
        #expect(Self.code { _ = try WhereClause("((a = 1))", limits: ClauseLimits(maxDepth: 1)) } == .nestingTooDeep)
        #expect(Self.code { _ = try WhereClause("a=1 OR a=2", limits: tight) } == .tooManyTokens)
        #expect(Self.code { _ = try WhereClause("a IN (1,2,3)", limits: ClauseLimits(maxListItems: 2)) } == .listTooLong)
        #expect(Self.code { _ = try WhereClause("abcde = 1", limits: tight) } == .identifierTooLong)
        #expect(try WhereClause("a IN (1,2)", limits: ClauseLimits(maxListItems: 2)).arcGISSQL == "a IN (1, 2)")
        #expect(Self.code { _ = try WhereClause("n LIKE '%abc%'", limits: ClauseLimits(maxPatternBytes: 4)) } == .invalidPattern)
        let longPattern = "n LIKE '" + String(repeating: "%a", count: 600) + "'"
        #expect(Self.code { _ = try WhereClause(longPattern) } == .invalidPattern)
        #expect(Self.code { _ = try WhereClause(cql2Text: longPattern) } == .invalidPattern)
        // A pattern at the limit in SQL stays within it in CQL2, where each literal backslash is written \\
        // (found by the fuzzer).
        let backslashes = try WhereClause("n LIKE '" + String(repeating: "\\", count: 1_023) + "%'")
        let cql2 = try backslashes.cql2Text()
        #expect(cql2.utf8.count > 2_048)
        let fromCQL2 = try WhereClause(cql2Text: cql2)
        #expect(try fromCQL2.cql2Text() == cql2)
        let record: [AttributeValue] = [.string(String(repeating: "\\", count: 1_023) + "tail")]
        #expect(try fromCQL2.compile(fieldNames: ["n"]).evaluate(record) == .true)
        #expect(try backslashes.compile(fieldNames: ["n"]).evaluate(record) == .true)
    }

    @Test("Bytes that are not UTF-8 give invalid_encoding with the column", arguments: [
        ([0x61, 0x20, 0x3D, 0x20, 0x27, 0xFF, 0x27] as [UInt8], 6),
        ([0x6E, 0x20, 0x3D, 0x20, 0x27, 0xC3, 0xA9, 0xC3, 0x27] as [UInt8], 7),
        ([0xC0, 0xAF] as [UInt8], 1),
        ([0xED, 0xA0, 0x80] as [UInt8], 1),
        ([0xF4, 0x90, 0x80, 0x80] as [UInt8], 1),
        ([0x61, 0xE2, 0x82] as [UInt8], 2),
    ])
    func invalidUTF8(bytes: [UInt8], column: Int) {
        let error = #expect(throws: QueryLanguageError.self) { try WhereClause(utf8: bytes) }
        #expect(error?.code == .invalidEncoding)
        #expect(error?.column == column)
    }

    @Test("Valid UTF-8 bytes read as the same text would")
    func validUTF8() throws {
        let text = "Name = 'Straße' AND City = '東京'"
        #expect(try WhereClause(utf8: Array(text.utf8)) == WhereClause(text))
    }

    @Test("Nesting is bounded without using up the stack")
    func deepNesting() throws {
        let depth = ClauseLimits.default.maxDepth
        let deepest = String(repeating: "(", count: depth - 1) + "a = 1" + String(repeating: ")", count: depth - 1)
        #expect(try WhereClause(deepest).arcGISSQL == "a = 1")
        let tooDeep = String(repeating: "(", count: depth + 1) + "a = 1" + String(repeating: ")", count: depth + 1)
        #expect(Self.code { _ = try WhereClause(tooDeep) } == .nestingTooDeep)
        let parentheses = String(repeating: "(", count: 60_000)
        #expect(Self.code { _ = try WhereClause(parentheses) } == .nestingTooDeep)
        let nots = String(repeating: "NOT ", count: 15_000) + "a = 1"
        #expect(Self.code { _ = try WhereClause(nots) } == .nestingTooDeep)
        let sum = "a" + String(repeating: " + a", count: 1_000) + " > 1"
        #expect(Self.code { _ = try WhereClause(sum) } == .nestingTooDeep)
        let calls = String(repeating: "UPPER(", count: 1_000) + "n" + String(repeating: ")", count: 1_000) + " = 'A'"
        #expect(Self.code { _ = try WhereClause(calls) } == .nestingTooDeep)
        let minuses = String(repeating: "- ", count: 10_000) + "1 = a"
        #expect(try WhereClause(minuses).arcGISSQL == "1 = a")
    }

    @Test("Big but legal clauses are read in linear time")
    func bigClauses() throws {
        let longString = "n = '" + String(repeating: "''", count: 30_000) + "'"
        #expect(try WhereClause(longString).expression.node
            == .comparison(.equal, FilterExpression(.field("n")), FilterExpression(.literal(.string(String(repeating: "'", count: 30_000))))))
        let longList = "OBJECTID IN (" + (1...5_000).map(String.init).joined(separator: ",") + ")"
        #expect(try WhereClause(longList).referencedFields == ["OBJECTID"])
        let tooLongList = "OBJECTID IN (" + (1...5_001).map(String.init).joined(separator: ",") + ")"
        #expect(Self.code { _ = try WhereClause(tooLongList) } == .listTooLong)
        let manyTerms = (1...3_000).map { "a = \($0)" }.joined(separator: " OR ")
        #expect(try WhereClause(manyTerms).arcGISSQL == manyTerms)
        let tooManyTokens = (1...6_000).map { _ in "a=1" }.joined(separator: " OR ")
        #expect(Self.code { _ = try WhereClause(tooManyTokens) } == .tooManyTokens)
        let longName = String(repeating: "a", count: 60_000) + " = 1"
        #expect(Self.code { _ = try WhereClause(longName) } == .identifierTooLong)
        let unterminated = "n = '" + String(repeating: "x", count: 60_000)
        #expect(Self.code { _ = try WhereClause(unterminated) } == .unterminatedString)
    }

    @Test("Control characters and NUL are refused outside and inside strings")
    func controlCharacters() {
        #expect(Self.code { _ = try WhereClause("a = 1\u{0}") } == .unexpectedCharacter)
        #expect(Self.code { _ = try WhereClause("a = 'x\u{0}y'") } == .unexpectedCharacter)
        #expect(Self.code { _ = try WhereClause("a = 1\u{7}") } == .unexpectedCharacter)
        #expect(Self.code { _ = try WhereClause("a\u{2028}= 1") } == .unexpectedCharacter)
    }
}
