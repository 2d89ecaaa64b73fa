import FeatureQueryClient
import QueryOutcomes

/// What the demo saw: each outcome printed as it arrives and checked, then a summary.
struct DemoReport {
    let labels: [String: String]
    private(set) var statuses: [String: Int] = [:]
    private(set) var failures: [String] = []
    private(set) var received = 0
    private(set) var requested = 0

    init(labels: [String: String]) {
        self.labels = labels
    }

    var allAsExpected: Bool { failures.isEmpty && received == requested }

    /// Reads outcomes until every request of `requests` has one (or the stream ends), printing a line per
    /// outcome: `ok` or `WRONG`, the requestId, the status, the layers' counts and the duration. With
    /// `eachLine` false only wrong outcomes get a line, and one line sums up the rest (a burst of 50).
    mutating func collect(_ requests: [DemoRequest], from stream: inout OutcomeStream, eachLine: Bool = true) async throws {
        requested += requests.count
        var pending = Dictionary(requests.map { ($0.requestId, $0) }, uniquingKeysWith: { first, _ in first })
        var right = 0
        var matches = 0
        while !pending.isEmpty, let completed = try await stream.next() {
            let outcome = completed.outcome
            guard let id = outcome.requestId, let request = pending.removeValue(forKey: id) else { continue }
            received += 1
            statuses[outcome.status, default: 0] += 1
            let problems = DemoCheck.problems(outcome, expected: request.expected)
            if problems.isEmpty {
                right += 1
                matches += (outcome.layers ?? []).reduce(0) { $0 + ($1.count ?? 0) }
            }
            if eachLine || !problems.isEmpty {
                let detail = OutcomeText.line(outcome) { labels[$0.url] ?? $0.url }
                printLine("  \(problems.isEmpty ? "ok   " : "WRONG") \(Self.padded(id, 26)) \(Self.padded(outcome.status, 11)) \(detail)")
                for line in Self.tableLines(outcome, request) { printLine(line) }
            }
            for problem in problems {
                printLine("        \(problem)")
                failures.append("\(id): \(problem)")
            }
        }
        if !eachLine, right > 0 {
            let last = requests.last?.requestId.split(separator: "-").last.map(String.init) ?? ""
            let range = "\(requests.first?.requestId ?? "")…\(last)"
            printLine("  ok    \(Self.padded(range, 26)) \(right) as expected, \(OutcomeText.grouped(matches)) matches in all")
        }
        for id in pending.keys.sorted() {
            printLine("  WRONG \(Self.padded(id, 26)) no outcome")
            failures.append("\(id): no outcome arrived")
        }
    }

    /// Records an outcome a phase read and checked itself (the stored result, fetched back): counted with the
    /// others, and its problems fail the demo.
    mutating func record(_ requestId: String, status: String?, problems: [String]) {
        requested += 1
        if let status {
            received += 1
            statuses[status, default: 0] += 1
        }
        for problem in problems {
            printLine("  WRONG \(Self.padded(requestId, 26)) \(problem)")
            failures.append("\(requestId): \(problem)")
        }
    }

    /// Records a check beyond the outcomes (token calls, pages asked): prints `problem` and fails the demo
    /// when `holds` is false.
    mutating func check(_ holds: Bool, _ subject: String, _ problem: @autoclosure () -> String) {
        guard !holds else { return }
        printLine("  WRONG \(Self.padded(subject, 26)) \(problem())")
        failures.append("\(subject): \(problem())")
    }

    /// `9 succeeded, 1 partial, 4 superseded, 1 rejected`, in the contract's order of statuses.
    var statusSummary: String {
        let order = ["succeeded", "partial", "rejected", "failed", "superseded", "cancelled", "expired"]
        let known = order.compactMap { status in statuses[status].map { "\($0) \(status)" } }
        let other = statuses.keys.filter { !order.contains($0) }.sorted().map { "\(statuses[$0] ?? 0) \($0)" }
        return (known + other).joined(separator: ", ")
    }

    /// Under a feature-table outcome's line: who joined its related records (``relatedLine(_:_:)``), its
    /// statistics as a short table (who computed, then a row per group), or who ordered its ids and the first
    /// of them; nothing for the others.
    static func tableLines(_ outcome: Outcome, _ request: DemoRequest) -> [String] {
        var lines: [String] = []
        for layer in outcome.layers ?? [] where layer.error == nil {
            if let groups = layer.related {
                lines.append("          " + relatedLine(layer, groups))
            } else if layer.statistics != nil {
                lines += OutcomeText.tableLines(layer, columns: TableColumns(query: request.job.query)).map { "      " + $0 }
            } else if let site = layer.orderedBy {
                let ids = DemoCheck.ids(of: layer) ?? []
                let shown = ids.prefix(OutcomeText.shownIds).map(String.init).joined(separator: ", ")
                lines.append("          ordered by the \(site): \(shown)\(ids.count > OutcomeText.shownIds ? ", …" : "")")
            }
        }
        return lines
    }

    /// `joined by the server, ordered by the server: 7: TaxYear 2024, 2023, …` for one origin, or
    /// `joined by the worker: 5 origins, 12, 40, 41 related records, …` for several.
    private static func relatedLine(_ layer: Outcome.Layer, _ groups: [Outcome.RelatedGroup]) -> String {
        var text = "joined by the \(layer.relatedBy ?? "(absent)")"
        if let site = layer.orderedBy { text += ", ordered by the \(site)" }
        if groups.count == 1, let group = groups.first {
            let years = group.records.prefix(OutcomeText.shownIds).map { $0.attributes?["TaxYear"]?.description ?? "?" }
            return text + ": \(group.objectId): TaxYear " + years.joined(separator: ", ")
        }
        let counts = groups.prefix(OutcomeText.shownIds).map { String($0.count) }.joined(separator: ", ")
        return text + ": \(groups.count) origins, \(counts)\(groups.count > OutcomeText.shownIds ? ", …" : "") related records"
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
