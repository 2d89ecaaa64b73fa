import BenchmarkSupport

/// One side's run of `download`, from its RESULT line.
struct DownloadRun {
    var seconds: Double
    var features: Int
    var requests: Int
    var maxRSSKiB: Int
    var geojsonBytes: Int
    var complete: String
    var expected: String
    var querySeconds: Double?
    var geojsonSeconds: Double?
    var writeSeconds: Double?

    init(_ fields: ResultFields) throws {
        seconds = try fields.double("seconds")
        features = try fields.int("features")
        requests = try fields.int("requests")
        maxRSSKiB = try fields.int("max_rss_kb")
        geojsonBytes = try fields.int("geojson_bytes")
        complete = fields.fields["complete"] ?? "-"
        expected = fields.fields["expected"] ?? "-"
        querySeconds = fields.optionalDouble("query_seconds")
        geojsonSeconds = fields.optionalDouble("geojson_seconds")
        writeSeconds = fields.optionalDouble("write_seconds")
    }

    var featuresPerSecond: Double { seconds > 0 ? Double(features) / seconds : 0 }

    func line(_ side: String) -> String {
        var text = "\(side.padding(8)) \(String(features).leftPadding(7)) features in \(format(seconds, 3).leftPadding(7)) s = "
            + "\(format(featuresPerSecond, 0).leftPadding(7)) features/s, \(requests) requests, peak RSS "
            + "\(format(megabytes(kib: Double(maxRSSKiB)), 1)) MB, GeoJSON \(format(Double(geojsonBytes) / 1e6, 1)) MB"
        if let querySeconds, let geojsonSeconds, let writeSeconds {
            text += " (query \(format(querySeconds, 3)) s, GeoJSON \(format(geojsonSeconds, 3)) s, write \(format(writeSeconds, 3)) s)"
        }
        return text
    }
}

/// A variant (where clause) and a side, for the results.
struct SelectionKey: Hashable {
    var variant: Int
    var side: SelectionBenchmark.Side
}

/// One side's run of `selection`, from its RESULT line.
struct SelectionRun {
    var seconds: Double
    var ids: Int
    var maxRSSKiB: Int
    var baselineRSSKiB: Int
    var requests: Int?
    /// The engine's completeness: its count, the service's count and its verdict.
    var count: String?
    var expected: String?
    var complete: String?

    init(_ fields: ResultFields) throws {
        seconds = try fields.double("seconds")
        ids = try fields.int("ids")
        maxRSSKiB = try fields.int("max_rss_kb")
        baselineRSSKiB = try fields.int("baseline_rss_kb")
        requests = fields.fields["requests"].flatMap { Int($0) }
        count = fields.fields["count"]
        expected = fields.fields["expected"]
        complete = fields.fields["complete"]
    }

    /// Why the engine's result is wrong (incomplete, or not `expected` ids), if it is.
    func engineProblem(expected wanted: Int?) -> String? {
        if complete != "true" {
            return "the engine reported an incomplete selection: \(ids) ids, count \(count ?? "-"), service count \(expected ?? "-")"
        }
        if let wanted, ids != wanted { return "the engine returned \(ids) ids, not \(wanted)" }
        return nil
    }

    func line(_ side: String) -> String {
        var text = "\(side.padding(9)) \(String(ids).leftPadding(8)) ids in \(format(seconds, 3).leftPadding(6)) s, peak RSS "
            + "\(format(megabytes(kib: Double(maxRSSKiB)), 1)) MB (baseline \(format(megabytes(kib: Double(baselineRSSKiB)), 1)) MB)"
        if let requests { text += ", \(requests) requests" }
        if let complete { text += ", complete: \(complete) (service count \(expected ?? "-"))" }
        return text
    }
}
