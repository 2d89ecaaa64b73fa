#if canImport(QueryLanguage)
import QueryLanguage
#endif

struct BenchmarkOptions {
    /// How long each throughput measurement runs.
    var seconds = 3.0
    /// How many synthetic parcels the evaluation runs over.
    var records = 2_400_000
    /// Evaluation passes; the best is reported.
    var repetitions = 5

    init(arguments: [String]) {
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            let value = remaining.popFirst() ?? ""
            switch flag {
            case "--seconds": seconds = Double(value) ?? seconds
            case "--records": records = Int(value) ?? records
            case "--repetitions": repetitions = Int(value) ?? repetitions
            default:
                print("usage: query-language-benchmark [--seconds S] [--records N] [--repetitions R]")
                print("unknown option \(flag)")
            }
        }
    }
}

enum QueryLanguageBenchmark {
    /// Typical clauses: the seed's seven, and the shapes other services send.
    static let typicalClauses = [
        "UseType = 'Government'", "UseType = 'Residential'", "UseType = 'Irrigated Farm'", "TaxRateArea = 10853",
        "TaxRateArea = 10860", "Roll_LandValue > 1000000", "Roll_LandValue < 1000000",
        "Roll_LandValue > 1000000 AND UseType = 'Residential'",
        "UseType IN ('Residential', 'Government', 'Commercial')",
        "TaxRateArea = 10853 OR TaxRateArea = 10860",
        "Roll_LandValue BETWEEN 500000 AND 2000000 AND NOT UseType = 'Vacant'",
        "UPPER(UseType) LIKE 'RES%'",
        "LastSaleDate >= DATE '2020-01-01' AND LastSaleDate < TIMESTAMP '2021-01-01 00:00:00'",
        "OBJECTID IN (101, 202, 303, 404, 505, 606, 707, 808)",
        "UseType IS NOT NULL AND Roll_LandValue + Roll_ImpValue > 2500000",
    ]

    static let parcels = LayerSchema(fields: [
        LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "UseType", type: .string),
        LayerField(name: "TaxRateArea", type: .integer), LayerField(name: "Roll_LandValue", type: .double),
        LayerField(name: "Roll_ImpValue", type: .double), LayerField(name: "LastSaleDate", type: .date),
    ])

    static let evaluatedClause = "Roll_LandValue > 1000000 AND UseType = 'Residential'"
    static let parseTarget = 200_000.0
    static let evaluationTarget = 1.0

    static func run(_ options: BenchmarkOptions) {
        print("QueryLanguage benchmark (single thread, \(options.seconds) s per throughput figure)")
        print("")
        let pipeline = measurePipeline(seconds: options.seconds)
        print("")
        RequestDecodingBenchmark.run(seconds: options.seconds)
        print("")
        let evaluation = measureEvaluation(options)
        print("")
        print("Summary")
        print(verdict("parse + validate + render (ArcGIS SQL)", pipeline, "clauses/s", target: parseTarget, higherIsBetter: true))
        print(verdict("evaluate \(options.records) records", evaluation.compiled, "s", target: evaluationTarget, higherIsBetter: false))
        print("  compiled clause vs hand-written Swift closure (same records, same run): "
            + "\(format(evaluation.compiled / evaluation.peer, 2))x the closure's time")
    }

    // MARK: - Parse, validate, render

    /// Clauses per second for each stage; returns the full pipeline's figure.
    static func measurePipeline(seconds: Double) -> Double {
        let clauses = typicalClauses
        print("Throughput over a mix of \(clauses.count) typical clauses:")
        let parseOnly = throughput(seconds: seconds, items: clauses) { text in
            (try? WhereClause(text)).map { $0.expression.depth } ?? 0
        }
        report("parse", parseOnly)
        let pipeline = throughput(seconds: seconds, items: clauses) { text in
            guard let clause = try? WhereClause(text).validated(against: parcels) else { return 0 }
            return clause.arcGISSQL.utf8.count
        }
        report("parse + validate + render ArcGIS SQL", pipeline)
        let withCQL2 = throughput(seconds: seconds, items: clauses) { text in
            guard let clause = try? WhereClause(text).validated(against: parcels) else { return 0 }
            let sql = clause.arcGISSQL.utf8.count
            let cql2 = ((try? clause.cql2Text())?.utf8.count ?? 0) + ((try? clause.cql2JSON())?.utf8.count ?? 0)
            return sql + cql2
        }
        report("parse + validate + render SQL, CQL2 text, CQL2-JSON", withCQL2)
        return pipeline
    }

    /// Items worked through per second, over the whole list again and again for `seconds` (after one warm-up
    /// pass); `work` returns a number folded into a checksum, so the optimiser keeps the work.
    static func throughput<Item>(seconds: Double, items: [Item], _ work: (Item) -> Int) -> Double {
        var checksum = 0
        for item in items { checksum &+= work(item) }  // warm-up
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        var elapsed = 0.0
        while elapsed < seconds {
            for item in items { checksum &+= work(item) }
            count += items.count
            elapsed = (clock.now - start).seconds
        }
        if checksum == 42 { print("(checksum \(checksum))") }
        return Double(count) / elapsed
    }

    static func report(_ stage: String, _ perSecond: Double, unit: String = "clauses") {
        print("  \(stage.padding(52)) \(format(perSecond, 0).padding(10, left: true)) \(unit)/s   \(format(1e6 / perSecond, 2)) µs each")
    }

    // MARK: - Evaluation

    static func measureEvaluation(_ options: BenchmarkOptions) -> (compiled: Double, peer: Double) {
        let fieldNames = ["OBJECTID", "UseType", "TaxRateArea", "Roll_LandValue"]
        let clock = ContinuousClock()
        var generation = SyntheticParcels(seed: 20_240_601)
        var records: [[AttributeValue]] = []
        let generated = clock.measure { records = generation.make(count: options.records) }
        print("Evaluating \(evaluatedClause)")
        print("  over \(records.count) synthetic parcels (generated in \(format(generated.seconds, 2)) s, deterministic)")

        let filter: CompiledFilter
        do {
            filter = try WhereClause(evaluatedClause).compile(fieldNames: fieldNames)
        } catch {
            print("  cannot compile: \(error)")
            return (.infinity, 1)
        }
        let peer: ([AttributeValue]) -> Bool = { record in
            let landValue: Bool
            switch record[3] {
            case .integer(let value): landValue = value > 1_000_000
            case .double(let value): landValue = value > 1_000_000
            default: landValue = false
            }
            guard landValue, case .string(let useType) = record[1] else { return false }
            return useType == "Residential"
        }

        var bestCompiled = Double.infinity
        var bestPeer = Double.infinity
        var compiledMatches = 0
        var peerMatches = 0
        for _ in 0..<max(1, options.repetitions) {
            // Alternate, so that neither side always runs with a warmer cache.
            let compiledTime = clock.measure {
                compiledMatches = 0
                for record in records where filter.matches(record) { compiledMatches += 1 }
            }.seconds
            let peerTime = clock.measure {
                peerMatches = 0
                for record in records where peer(record) { peerMatches += 1 }
            }.seconds
            bestCompiled = min(bestCompiled, compiledTime)
            bestPeer = min(bestPeer, peerTime)
        }
        print("  compiled clause:        \(format(bestCompiled, 3)) s (best of \(options.repetitions)), "
            + "\(format(Double(records.count) / bestCompiled / 1e6, 1)) M records/s, \(compiledMatches) matches")
        print("  hand-written closure:   \(format(bestPeer, 3)) s (best of \(options.repetitions)), "
            + "\(format(Double(records.count) / bestPeer / 1e6, 1)) M records/s, \(peerMatches) matches")
        if compiledMatches != peerMatches { print("  MISMATCH: the two selections differ") }
        return (bestCompiled, bestPeer)
    }

    // MARK: - Formatting

    static func verdict(_ what: String, _ value: Double, _ unit: String, target: Double, higherIsBetter: Bool) -> String {
        let met = higherIsBetter ? value >= target : value < target
        let comparison = higherIsBetter ? ">=" : "<"
        let shown = unit == "s" ? format(value, 3) : format(value, 0)
        return "  \(what.padding(48)) \(shown) \(unit) (target \(comparison) \(format(target, unit == "s" ? 1 : 0)) \(unit)): "
            + (met ? "met" : "NOT met") + " (\(format(higherIsBetter ? value / target : target / value, 2))x the target)"
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return String(Int64(rounded)) }
        let whole = Int64(rounded.magnitude)
        let fraction = Int64(((rounded.magnitude - Double(whole)) * scale).rounded())
        let digits = String(fraction)
        return (rounded < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

extension String {
    func padding(_ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - count))
        return left ? fill + self : self + fill
    }
}
