import ArgumentParser
import BenchmarkSupport
import Foundation
import FeatureService

/// `selection`: a whole layer's selection (every matching object id) through the engine and through a Python
/// client doing what ArcGIS API for Python does for `query(return_ids_only=True)`, without and with a where
/// clause: time, id count and peak RSS of each side, the engine's peak RSS against the target.
///
/// The ids of both sides are compared in every run; the selection without a where clause must hold exactly
/// --expected-ids and the engine must call every result complete, or the run fails whatever --strict says.
struct SelectionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selection",
        abstract: "A whole layer's selection (ids): ArcGISEngine against an ArcGIS-API-for-Python-style query.",
        discussion: """
            The engine side (engine-select, a fresh process per run, not the server's) runs \
            ServiceQuery(whereClause:, result: .ids) with the engine's defaults: a returnCountOnly and a \
            returnIdsOnly request at once, the ids decoded, sorted and checked against the count. The Python side \
            (python/arcgis_ids_query.py) sends the one returnIdsOnly POST that FeatureLayer.query(\
            return_ids_only=True) sends and parses the body with requests' json(). Times are from the first \
            request (client set-up included) to the ids in hand; peak RSS is read right then, on both sides \
            from VmHWM in /proc/self/status (not ru_maxrss, which Linux carries across execve from the \
            parent).
            """
    )

    @OptionGroup var options: DriverOptions

    @Option(help: "The number of features the layer has: the selection without a where clause must hold these many ids.")
    var expectedIds: Int = 2_400_000

    @Option(help: "The where clause of the second variant; empty for none.")
    var whereClause: String = "UseType = 'Residential'"

    @Option(help: "Target: the engine's peak RSS, at most, in MB (10^6 bytes).")
    var targetRSSMB: Double = 200

    enum Side: String, CaseIterable {
        case engine
        case python = "arcgis-py"
    }

    func run() async throws {
        let work = try options.makeWorkDirectory(prefix: "arcgis-selection")
        defer { options.removeWorkDirectory(work) }
        let engine = try ChildRun.selfExecutable()
        let variants: [String?] = whereClause.isEmpty ? [nil] : [nil, whereClause]
        var results: [SelectionKey: [SelectionRun]] = [:]
        var failures: [String] = []

        output(
            "arcgis-engine-benchmark selection: every matching object id of \(options.layer); "
                + "\(options.repetitions) measured repetition\(options.repetitions == 1 ? "" : "s") + "
                + "\(options.warmups) warm-up per variant, each side a fresh process per run, the first side "
                + "alternating; client CPUs: \(options.clientCPUs ?? "unpinned")")
        output("  engine:    ServiceQuery(result: .ids), ArcGISEngine defaults (count + returnIdsOnly, completeness checked)")
        output("  arcgis-py: what ArcGIS API for Python sends for query(return_ids_only=True): one returnIdsOnly POST, response.json()")

        for (variantIndex, clause) in variants.enumerated() {
            let name = clause.map { "where \($0)" } ?? "no where clause"
            for index in 0..<(options.warmups + options.repetitions) {
                let counted = index >= options.warmups
                let label = (counted ? "run \(index - options.warmups + 1)" : "warm-up \(index + 1)") + " [\(name)]"
                var idLists: [Side: IDList] = [:]
                for side in DriverOptions.order(Side.allCases, repetition: index) {
                    let ids = "\(work)/\(side.rawValue)-\(variantIndex)-\(index).ids"
                    var command: [String]
                    switch side {
                    case .engine:
                        command = [engine, "engine-select", "--layer", options.layer, "--ids-out", ids, "--log-level", options.logLevel]
                    case .python:
                        command = [options.python, options.peers + "/arcgis_ids_query.py", "--layer", options.layer, "--ids-out", ids]
                    }
                    if let clause { command += ["--where", clause] }
                    let fields = try await ChildRun(command: command, cpus: options.clientCPUs).run()
                    let measured = try SelectionRun(fields)
                    idLists[side] = try IDList(path: try fields.string("ids_file"))
                    try? FileManager.default.removeItem(atPath: ids)
                    output("\(label): \(measured.line(side.rawValue))")
                    if counted { results[SelectionKey(variant: variantIndex, side: side), default: []].append(measured) }
                    if side == .engine, let problem = measured.engineProblem(expected: clause == nil ? expectedIds : nil) {
                        failures.append("\(label): \(problem)")
                    }
                }
                if let engineIDs = idLists[.engine], let pythonIDs = idLists[.python], engineIDs != pythonIDs {
                    let problem = IDList.difference(engineIDs, "engine", pythonIDs, "arcgis-py")
                    failures.append("\(label): \(problem)")
                    output("\(label): IDS DIFFER: \(problem)")
                } else if let list = idLists[.engine] {
                    output("\(label): ids identical on both sides: \(list.summary)")
                }
            }
        }
        let passed = printTable(results, variants: variants)
        if !failures.isEmpty {
            output("FAILED: wrong or incomplete selections:")
            for failure in failures { output("  " + failure) }
            throw ExitCode(1)
        }
        if options.strict && !passed { throw ExitCode(1) }
    }

    /// The medians per variant and side, the engine's peak RSS against the target and the ratios; returns
    /// whether every target passed.
    private func printTable(_ results: [SelectionKey: [SelectionRun]], variants: [String?]) -> Bool {
        func med(_ variant: Int, _ side: Side, _ figure: (SelectionRun) -> Double) -> Double {
            median((results[SelectionKey(variant: variant, side: side)] ?? []).map(figure))
        }
        output("")
        output("Whole-layer selection (object ids), median of \(options.repetitions) run\(options.repetitions == 1 ? "" : "s")")
        let header = [
            "variant".padding(32), "client".padding(9), "seconds".leftPadding(8), "ids".leftPadding(8),
            "requests".leftPadding(8), "peak RSS MB".leftPadding(11), "baseline MB".leftPadding(11),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for (variant, clause) in variants.enumerated() {
            for side in Side.allCases {
                let row = [
                    (clause ?? "(none)").padding(32), side.rawValue.padding(9),
                    format(med(variant, side, \.seconds), 3).leftPadding(8),
                    format(med(variant, side) { Double($0.ids) }, 0).leftPadding(8),
                    format(med(variant, side) { Double($0.requests ?? 1) }, 0).leftPadding(8),
                    format(megabytes(kib: med(variant, side) { Double($0.maxRSSKiB) }), 1).leftPadding(11),
                    format(megabytes(kib: med(variant, side) { Double($0.baselineRSSKiB) }), 1).leftPadding(11),
                ]
                output(row.joined(separator: " | "))
            }
        }
        output("")
        var passed = true
        for (variant, clause) in variants.enumerated() {
            let name = clause ?? "no where clause"
            let rss = megabytes(kib: med(variant, .engine) { Double($0.maxRSSKiB) })
            let good = rss < targetRSSMB
            passed = passed && good
            output("[\(name)] engine peak RSS: \(format(rss, 1)) MB  -> \(good ? "PASS" : "FAIL") (target < \(format(targetRSSMB, 0)) MB)")
            let engineSeconds = med(variant, .engine, \.seconds)
            let engineRSS = med(variant, .engine) { Double($0.maxRSSKiB) }
            output(
                "(info) [\(name)] time arcgis-py/engine: \(format(engineSeconds > 0 ? med(variant, .python, \.seconds) / engineSeconds : 0, 2))x, "
                    + "peak RSS arcgis-py/engine: \(format(engineRSS > 0 ? med(variant, .python) { Double($0.maxRSSKiB) } / engineRSS : 0, 2))x")
        }
        output(passed ? "ALL TARGETS PASS" : "SOME TARGETS FAIL")
        return passed
    }
}
