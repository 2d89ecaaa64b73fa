// libFuzzer target for the QueryLanguage parser and everything downstream of it.
//
// Not built by SwiftPM: Fuzz/run-query-language-fuzz.sh compiles this file together with
// Sources/QueryLanguage/*.swift into one module with `swiftc -sanitize=fuzzer,address`, so the checks can
// also use the module's internals. Every input must give a clause or a typed error; when it gives a clause,
// the invariants below must hold. A broken invariant stops the run with `fatalError`, which libFuzzer
// records as a crash with the input that caused it.

@_cdecl("LLVMFuzzerTestOneInput")
public func queryLanguageFuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzInvariants.check(bytes)
    return 0
}

enum FuzzInvariants {
    /// Reparsing rendered text may need more room than the input had (spaces, canonical numbers).
    static let roomy = ClauseLimits(maxClauseBytes: ClauseLimits.byteCeiling)
    static let now: Int64 = 1_700_000_000_123
    static let context = EvaluationContext(currentTimeMilliseconds: now)
    static let cql2Options = CQL2Options(currentTimeMilliseconds: now)

    static let layer = LayerSchema(fields: [
        LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "UseType", type: .string),
        LayerField(name: "TaxRateArea", type: .integer), LayerField(name: "Roll_LandValue", type: .double),
        LayerField(name: "Opened", type: .date), LayerField(name: "a", type: .integer),
        LayerField(name: "n", type: .string),
    ])

    /// Values records are made of: every kind, edge numbers, wildcard and quote characters (ASCII only:
    /// CASEI and LOWER agree on ASCII text, which is what the CQL2 rewrite promises).
    static let values: [AttributeValue] = [
        .null, .integer(0), .integer(-3), .integer(10853), .integer(.max), .integer(.min), .double(2.5),
        .double(-0.0), .double(1_000_000.5), .string(""), .string("Residential"), .string("abc%_\\'x"),
        .string("  Trim me "), .date(1_577_836_800_000), .date(now),
    ]

    static func check(_ bytes: [UInt8]) {
        // The SQL path: any bytes give a clause or a typed error (the type is guaranteed by typed throws).
        if let clause = try? WhereClause(utf8: bytes) {
            checkClause(clause, origin: "SQL")
            if let validated = try? clause.validated(against: layer) { checkClause(validated, origin: "validated SQL") }
        }
        // The CQL2 path, over the same bytes read as text.
        if let clause = try? WhereClause(cql2Text: String(decoding: bytes, as: UTF8.self)) {
            let sql = clause.arcGISSQL
            guard let again = try? WhereClause(sql, limits: roomy) else {
                fatalError("SQL rendering of a CQL2 clause does not parse: \(sql)")
            }
            checkSameResults(clause, again, what: "CQL2 clause and its SQL rendering \(sql)")
        }
    }

    static func checkClause(_ clause: WhereClause, origin: String) {
        let sql = clause.arcGISSQL
        let reparsed: WhereClause
        do {
            reparsed = try WhereClause(sql, limits: roomy)
        } catch {
            fatalError("\(origin): rendered SQL does not parse: \(sql): \(error)")
        }
        guard reparsed == clause else { fatalError("\(origin): round trip changed the clause: \(sql) -> \(reparsed.arcGISSQL)") }
        guard reparsed.arcGISSQL == sql else { fatalError("\(origin): rendering is not stable: \(sql)") }

        _ = try? clause.cql2JSON(cql2Options)
        _ = try? clause.cql2ConformanceClasses(cql2Options)
        guard let text = try? clause.cql2Text(cql2Options) else { return }
        let fromCQL2: WhereClause
        do {
            fromCQL2 = try WhereClause(cql2Text: text, limits: roomy)
        } catch where [.nestingTooDeep, .tooManyTokens, .clauseTooLong].contains(error.code) {
            return
        } catch {
            fatalError("\(origin): CQL2 text does not parse: \(text): \(error)")
        }
        checkSameResults(clause, fromCQL2, what: "\(origin) \(sql) and its CQL2 text \(text)")
    }

    /// Both clauses must select the same records, with the same unknowns.
    static func checkSameResults(_ first: WhereClause, _ second: WhereClause, what: String) {
        var names = first.referencedFields
        for name in second.referencedFields where !names.contains(name) { names.append(name) }
        guard let a = try? first.compile(fieldNames: names, context: context),
            let b = try? second.compile(fieldNames: names, context: context)
        else { fatalError("\(what): does not compile") }
        for seed in 0..<6 {
            let record = names.indices.map { values[(seed * 7 + $0 * 3 + seed * $0) % values.count] }
            let (x, y) = (a.evaluate(record), b.evaluate(record))
            guard x == y else { fatalError("\(what): \(x) vs \(y) on \(record)") }
        }
    }
}
