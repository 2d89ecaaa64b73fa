import QueryOutcomes

extension OutcomeText {
    /// A layer's related records (one line per feature, its records' attributes below it) or attachments (one
    /// line per attachment), at most ``shownRows`` lines of either; who joined or listed them.
    static func relatedLines(_ layer: Outcome.Layer) -> [String] {
        var lines: [String] = []
        if let groups = layer.related {
            let by = layer.relatedBy.map { ", joined by the \($0)" } ?? ""
            lines.append("    related records from \(layer.relatedTable ?? "the related table")\(by)")
            var shown = 0
            for group in groups where shown < shownRows {
                lines.append("    \(group.objectId): \(grouped(group.count)) related record\(group.count == 1 ? "" : "s")")
                shown += 1
                for record in group.records where shown < shownRows {
                    let pairs = record.attributes?.pairs.map { "\($0.name)=\($0.value)" } ?? []
                    lines.append("      " + pairs.joined(separator: "  "))
                    shown += 1
                }
            }
            if shown >= shownRows { lines.append("    … (\(grouped(layer.count ?? 0)) related records in all)") }
        }
        if let groups = layer.attachments {
            if let site = layer.attachmentsBy { lines.append("    attachments listed by the \(site)") }
            let all = groups.flatMap { group in group.attachments.map { (group.objectId, $0) } }
            for (objectId, attachment) in all.prefix(shownRows) {
                lines.append(
                    "    \(objectId): \(attachment.name)  \(attachment.contentType)  \(grouped(Int(attachment.size))) bytes  \(attachment.url)")
            }
            if all.count > shownRows { lines.append("    … (\(grouped(all.count)) attachments in all)") }
        }
        return lines
    }
}
