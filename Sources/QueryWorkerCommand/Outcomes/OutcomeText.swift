import QueryOutcomes

/// Outcomes written for people: a block per outcome for `query`, one line per outcome for `demo`.
///
/// The JSON is for programs (`query --json`); these texts answer what a person looks for first: did it
/// work, how many features per layer, was the selection complete, and if not, which code and why.
enum OutcomeText {
    /// How many object ids a block shows before eliding the rest.
    static let shownIds = 10

    /// How many catalog entries a block shows before eliding the rest.
    static let shownEntries = 200

    /// `query`'s block: a status line, then per layer its url, count, completeness (and why not, and where
    /// the filter ran), its first ids or its catalog entries, and its features as GeoJSON (`features`, by
    /// layer URL, from ``OutcomeJSON/featureCollections(parts:)``); or the error.
    ///
    /// A stored layer (contract 1.3) gets a `stored` line; with `locationOnly` also its presigned URL and expiry
    /// (`query --location-only`), otherwise its ids and features were fetched into `outcome` and `features`.
    static func block(
        _ outcome: Outcome, features: [(url: String, geoJSON: String)] = [], columns: TableColumns = TableColumns(),
        locationOnly: Bool = false
    ) -> String {
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
            lines.append(summary(layer))
            if let location = layer.location { lines += storedLines(location, locationOnly: locationOnly) }
            if let ids = layer.objectIds, !ids.isEmpty {
                lines.append(idLine(ids.map(String.init)))
            }
            if let ids = layer.featureIds, !ids.isEmpty {
                lines.append(idLine(ids.map { $0?.description ?? "null" }))
            }
            for entry in (layer.catalog ?? []).prefix(shownEntries) {
                lines.append("    " + catalogLine(entry))
            }
            if let count = layer.catalog?.count, count > shownEntries {
                lines.append("    … (\(grouped(count)) entries in all)")
            }
            lines += tableLines(layer, columns: columns)
            lines += relatedLines(layer)
            if let collection = features.first(where: { $0.url == layer.url }) {
                lines.append("    features (GeoJSON):")
                lines.append(collection.geoJSON)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `Cities: 12 matching, complete` or `134 matching, incomplete (max_features), filtered by the client`;
    /// a catalog says `5 entries`.
    private static func summary(_ layer: Outcome.Layer) -> String {
        var text = "    \(layer.name.map { "\($0): " } ?? "")\(layer.collection.map { "\($0): " } ?? "")"
        if layer.catalog != nil {
            return text + "\(grouped(layer.count ?? 0)) entr\(layer.count == 1 ? "y" : "ies")"
        }
        text += "\(grouped(layer.count ?? 0)) matching"
        text += layer.complete == true ? ", complete" : ", incomplete"
        if layer.complete != true, let reason = layer.incompleteReason { text += " (\(reason))" }
        if let site = layer.filteredBy { text += ", filtered by the \(site)" }
        return text
    }

    /// `stored s3://… (2,000 features, 1,234,567 bytes, application/x-ndjson, zstd, sha256 …)`, and with
    /// `locationOnly` the presigned URL and when it expires.
    static func storedLines(_ location: Outcome.Location, locationOnly: Bool) -> [String] {
        let count = location.features.map { "\(grouped($0)) features" } ?? "\(grouped(location.ids ?? 0)) ids"
        var details = [count, "\(grouped(location.bytes)) bytes", location.contentType]
        if let encoding = location.contentEncoding { details.append(encoding) }
        details.append("sha256 \(location.sha256)")
        var lines = ["    stored \(location.url) (\(details.joined(separator: ", ")))"]
        if locationOnly {
            lines.append("    httpUrl \(location.httpUrl)")
            lines.append("    expires \(location.expiresAt)")
        }
        return lines
    }

    private static func idLine(_ ids: [String]) -> String {
        let shown = ids.prefix(shownIds).joined(separator: ", ")
        return "    ids \(shown)" + (ids.count > shownIds ? ", … (\(grouped(ids.count)) in all)" : "")
    }

    /// `3  Counties  esriGeometryPolygon  http://…/MapServer/3`, with `(not queryable)` when it is not.
    private static func catalogLine(_ entry: Outcome.CatalogItem) -> String {
        var fields = [entry.id]
        if let title = entry.title, title != entry.id { fields.append(title) }
        if let type = entry.geometryType { fields.append(type) }
        if let itemType = entry.itemType, itemType != "feature" { fields.append("items: \(itemType)") }
        if let languages = entry.filterLanguages {
            fields.append(languages.isEmpty ? "filters: worker" : "filters: \(languages.joined(separator: ","))")
        }
        if entry.queryable == false { fields.append("(not queryable)") }
        if let url = entry.url { fields.append(url) }
        return fields.joined(separator: "  ")
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
