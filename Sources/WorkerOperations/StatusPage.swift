import FeatureQuerySupport
package import QueryWorker

/// The page at `/`: what a person opening the worker in a browser wants to see, in plain HTML with an inline SVG
/// chart, refreshing itself every ``refreshSeconds``; no script, no framework, nothing fetched from elsewhere.
///
/// Every figure sits in an element with a stable `id` or `data-` attributes (`#answered[data-value]`,
/// `#partitions tr[data-partition]`, ...), so a test reads the numbers the page shows, not its layout.
package struct StatusPage: Sendable {
    package var status: WorkerStatus
    package var refreshSeconds: Int

    package init(status: WorkerStatus, refreshSeconds: Int = 5) {
        self.status = status
        self.refreshSeconds = refreshSeconds
    }

    package var html: String {
        let e = HTMLText.escaped
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="\(refreshSeconds)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(status.workerID)) · query worker</title>
            <style>\(Self.style)</style></head>
            <body data-worker-id="\(e(status.workerID))" data-phase="\(status.phase.rawValue)" data-captured-at-ms="\(status.capturedAtMs)">
            <header><h1>\(e(status.workerID))</h1><p>group <b>\(e(status.groupID))</b> · \
            <span id="phase" class="\(status.isLive ? "ok" : "bad")">\(status.phase.rawValue)</span> · \
            \(readiness) · as of \(RFC3339.string(fromMilliseconds: status.capturedAtMs))</p></header>
            \(summary)
            <section><h2>Throughput and errors</h2>\(ActivityChart(buckets: status.activity, bucketSeconds: WorkerStatus.activityBucketSeconds).svg)</section>
            \(partitions)
            \(inFlight)
            \(outcomes)
            \(errors)
            \(settings)
            </body></html>

            """
    }

    private var readiness: String {
        if let reason = status.notReadyReason {
            return #"<span id="ready" class="bad" data-ready="false">not ready: \#(HTMLText.escaped(reason))</span>"#
        }
        return #"<span id="ready" class="ok" data-ready="true">ready</span>"#
    }

    private var summary: String {
        let lastMinute = status.activity.suffix(60 / WorkerStatus.activityBucketSeconds)
        let perSecond = Double(lastMinute.reduce(0) { $0 + $1.answered }) / 60
        let answered = status.activity.reduce(0) { $0 + $1.answered }
        let errors = status.activity.reduce(0) { $0 + $1.errors }
        let errorRate = answered == 0 ? 0 : Double(errors) / Double(answered) * 100
        let oldest = status.inFlight.first?.ageMs
        let lag = status.partitions.compactMap(\.lag).reduce(0, +)
        func item(_ id: String, _ label: String, _ value: String, _ shown: String? = nil) -> String {
            #"<div><dt>\#(label)</dt><dd id="\#(id)" data-value="\#(value)">\#(shown ?? value)</dd></div>"#
        }
        return """
            <dl class="summary">\
            \(item("answered", "answered", "\(status.answered)"))\
            \(item("throughput", "answered/s (1 min)", Self.decimal(perSecond)))\
            \(item("error-rate", "error rate (10 min)", Self.decimal(errorRate), Self.decimal(errorRate) + " %"))\
            \(item("in-flight-count", "in flight", "\(status.inFlight.count)"))\
            \(item("runs", "runs", "\(status.runs)"))\
            \(item("oldest-age-ms", "oldest request", oldest.map(String.init) ?? "", oldest.map { Self.age($0) } ?? "–"))\
            \(item("lag", "lag", "\(lag)"))\
            \(item("intake", "intake", status.intakePaused ? "paused" : "open"))\
            \(item("partition-count", "partitions", "\(status.partitions.count)"))\
            </dl>
            """
    }

    private var partitions: String {
        let rows = status.partitions.map { p in
            """
            <tr data-topic="\(HTMLText.escaped(p.topic))" data-partition="\(p.partition)" data-in-flight="\(p.inFlight)" \
            data-committable="\(p.committable.map(String.init) ?? "")" data-committed="\(p.committed.map(String.init) ?? "")" \
            data-end="\(p.end.map(String.init) ?? "")" data-lag="\(p.lag.map(String.init) ?? "")">\
            <td>\(HTMLText.escaped(p.topic))</td><td>\(p.partition)</td><td>\(HTMLText.number(p.lag))</td><td>\(p.inFlight)</td>\
            <td>\(HTMLText.number(p.committable))</td><td>\(HTMLText.number(p.committed))</td><td>\(HTMLText.number(p.end))</td></tr>
            """
        }
        return Self.table(
            id: "partitions", title: "Partitions", headers: ["topic", "partition", "lag", "in flight", "committable", "committed", "end"],
            rows: rows, empty: "no partition assigned")
    }

    private var inFlight: String {
        let rows = status.inFlight.prefix(Self.rowLimit).map { r in
            """
            <tr data-request-id="\(HTMLText.escaped(r.requestId))" data-task-id="\(HTMLText.escaped(r.taskId))" \
            data-partition="\(r.partition)" data-offset="\(r.offset)" data-age-ms="\(r.ageMs)">\
            <td>\(HTMLText.escaped(r.requestId))</td><td>\(HTMLText.escaped(r.taskId))</td><td>\(r.partition)</td>\
            <td>\(r.offset)</td><td>\(Self.age(r.ageMs))</td></tr>
            """
        }
        let more = status.inFlight.count > Self.rowLimit ? " (oldest \(Self.rowLimit) of \(status.inFlight.count))" : ""
        return Self.table(
            id: "in-flight", title: "Requests in flight" + more, headers: ["request", "task", "partition", "offset", "age"],
            rows: rows, empty: "none")
    }

    private var outcomes: String {
        let rows = status.outcomes.map { o in
            """
            <tr data-status="\(HTMLText.escaped(o.status))" data-code="\(HTMLText.escaped(o.code))" data-count="\(o.count)">\
            <td>\(HTMLText.escaped(o.status))</td><td>\(HTMLText.escaped(o.code))</td><td>\(o.count)</td></tr>
            """
        }
        return Self.table(id: "outcomes", title: "Outcomes since start", headers: ["status", "code", "count"], rows: rows, empty: "none yet")
    }

    private var errors: String {
        let rows = status.recentErrors.map { error in
            """
            <tr data-code="\(HTMLText.escaped(error.code))" data-request-id="\(HTMLText.escaped(error.requestId ?? ""))" \
            data-at-ms="\(error.atMs)"><td>\(RFC3339.string(fromMilliseconds: error.atMs))</td>\
            <td>\(HTMLText.escaped(error.code))</td><td>\(HTMLText.escaped(error.requestId ?? "–"))</td>\
            <td class="text">\(HTMLText.escaped(error.message))</td></tr>
            """
        }
        return Self.table(id: "recent-errors", title: "Last errors", headers: ["time", "code", "request", "message"], rows: rows, empty: "none")
    }

    private var settings: String {
        let rows = status.settings.map { s in
            """
            <tr data-key="\(HTMLText.escaped(s.key))" data-value="\(HTMLText.escaped(s.value))">\
            <td>\(HTMLText.escaped(s.key))</td><td>\(HTMLText.escaped(s.value))</td></tr>
            """
        }
        return Self.table(id: "settings", title: "Settings in force (secrets redacted)", headers: ["setting", "value"], rows: rows, empty: "")
    }

    /// Rows shown of the in-flight requests: the oldest, which are the ones a person looks for.
    static let rowLimit = 50

    static func table(id: String, title: String, headers: [String], rows: [String], empty: String) -> String {
        let head = headers.map { "<th>\($0)</th>" }.joined()
        let body = rows.isEmpty ? #"<tr class="empty"><td colspan="\#(headers.count)">\#(empty)</td></tr>"# : rows.joined(separator: "\n")
        return "<section><h2>\(title)</h2><table id=\"\(id)\" data-rows=\"\(rows.count)\"><thead><tr>\(head)</tr></thead><tbody>\n\(body)\n</tbody></table></section>"
    }

    /// `1.25`: two decimals, dot-separated whatever the locale.
    static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `850 ms`, `12.4 s`, `3 min 5 s`.
    static func age(_ milliseconds: Int64) -> String {
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 { return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s" }
        return "\(milliseconds / 60_000) min \(milliseconds % 60_000 / 1_000) s"
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#222;background:#fafafa}\
        h1{font-size:20px;margin:0}h2{font-size:15px;margin:20px 0 6px}header p{margin:4px 0;color:#555}\
        .ok{color:#1a7f37;font-weight:600}.bad{color:#c62828;font-weight:600}\
        dl.summary{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0}dl.summary div{background:#fff;border:1px solid #ddd;\
        border-radius:6px;padding:6px 12px;min-width:110px}dt{font-size:12px;color:#666}dd{margin:0;font-size:18px;font-weight:600}\
        table{border-collapse:collapse;background:#fff}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}\
        th{background:#f0f0f0;font-weight:600}td{white-space:nowrap}td.text{white-space:normal}td:nth-child(n+2){font-variant-numeric:tabular-nums}tr.empty td{color:#888}\
        svg{background:#fff;border:1px solid #ddd}svg text{font-size:11px;fill:#666}svg .grid{stroke:#eee}\
        svg .answered{fill:#90a4ae}svg .errors{fill:#e53935}
        """
}
