import Foundation

/// Related records and attachments of a result (contract 1.2) as `query` reads them: per feature, how many
/// records (and the records' attributes), or the attachments' names, types, sizes and URLs.
extension Outcome {
    /// One feature's related records: `records` are this entry's slice, `count` the feature's records in all.
    struct RelatedGroup: Sendable, Decodable {
        var objectId: Int64
        var records: [RelatedRecord]
        var count: Int
    }

    /// A related record's attributes (its geometry is not shown).
    struct RelatedRecord: Sendable, Decodable {
        var attributes: FieldValues?
    }

    /// One feature's attachments.
    struct AttachmentGroup: Sendable, Decodable {
        var objectId: Int64
        var attachments: [Attachment]
    }

    struct Attachment: Sendable, Decodable {
        var id: Int64
        var name: String
        var contentType: String
        var size: Int64
        var url: String
    }
}

extension Outcome.RelatedGroup {
    /// `earlier` groups followed by a later part's `groups`: a first group with the `objectId` of the last one
    /// continues it, as the worker splits a group too large for one part (docs/contract/README.md).
    static func continued(_ earlier: [Self], _ groups: [Self]) -> [Self] {
        var earlier = earlier
        var groups = groups[...]
        if let first = groups.first, earlier.last?.objectId == first.objectId {
            earlier[earlier.count - 1].records += first.records
            groups = groups.dropFirst()
        }
        return earlier + groups
    }
}

extension Outcome.AttachmentGroup {
    /// As ``Outcome/RelatedGroup/continued(_:_:)``, for attachments.
    static func continued(_ earlier: [Self], _ groups: [Self]) -> [Self] {
        var earlier = earlier
        var groups = groups[...]
        if let first = groups.first, earlier.last?.objectId == first.objectId {
            earlier[earlier.count - 1].attachments += first.attachments
            groups = groups.dropFirst()
        }
        return earlier + groups
    }
}

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
