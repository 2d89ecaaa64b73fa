/// Outcomes written for people: a block per outcome for `query`, one line per outcome for `demo`.
///
/// The JSON is for programs (`query --json`); these texts answer what a person looks for first: did it
/// work, how many features per layer, was the selection complete, and if not, which code and why.
enum OutcomeText {
    /// How many object ids a block shows before eliding the rest.
    static let shownIds = 10

    /// `query`'s block: a status line, then one line per layer (url, count, complete, first ids) or the error.
    static func block(_ outcome: Outcome) -> String {
        var header = "\(outcome.status)  request \(outcome.requestId ?? "(unknown)")"
        if let task = outcome.taskId, task != outcome.requestId { header += "  task \(task)" }
        if let layers = outcome.layers { header += "  \(layers.count) layer\(layers.count == 1 ? "" : "s")" }
        if let duration = outcome.durationMs { header += "  \(grouped(duration)) ms" }
        if let worker = outcome.worker { header += "  worker \(worker)" }
        var lines = [header]
        if let error = outcome.error {
            lines.append("  error \(error.code): \(error.message)" + (error.retryable == true ? " (retryable)" : ""))
        }
        if let newer = outcome.supersededBy { lines.append("  superseded by \(newer)") }
        for layer in outcome.layers ?? [] {
            lines.append("  \(layer.url)")
            if let error = layer.error {
                lines.append("    failed \(error.code): \(error.message)")
                continue
            }
            var summary = "    \(layer.name.map { "\($0): " } ?? "")\(grouped(layer.count ?? 0)) matching"
            summary += layer.complete == true ? ", complete" : ", incomplete"
            lines.append(summary)
            if let ids = layer.objectIds, !ids.isEmpty {
                let shown = ids.prefix(shownIds).map(String.init).joined(separator: ", ")
                lines.append("    ids \(shown)" + (ids.count > shownIds ? ", … (\(grouped(ids.count)) in all)" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The demo's line: status, then each layer's count (or error code), then the duration.
    static func line(_ outcome: Outcome, labels: (Outcome.Layer) -> String) -> String {
        var parts: [String] = []
        if let newer = outcome.supersededBy {
            parts.append("by \(newer)")
        } else if let error = outcome.error {
            parts.append("\(error.code)")
        }
        for layer in outcome.layers ?? [] {
            let label = labels(layer)
            if let error = layer.error {
                parts.append("\(label) failed (\(error.code))")
            } else {
                parts.append("\(label) \(grouped(layer.count ?? 0))" + (layer.complete == false ? " (incomplete)" : ""))
            }
        }
        if let duration = outcome.durationMs { parts.append("\(grouped(duration)) ms") }
        return parts.joined(separator: ", ")
    }

    /// `2400000` → `2,400,000`.
    static func grouped<Number: BinaryInteger>(_ number: Number) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
