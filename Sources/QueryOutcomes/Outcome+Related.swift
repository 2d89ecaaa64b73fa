import Foundation

/// Related records and attachments of a result (contract 1.2) as `query` reads them: per feature, how many
/// records (and the records' attributes), or the attachments' names, types, sizes and URLs.
extension Outcome {
    /// One feature's related records: `records` are this entry's slice, `count` the feature's records in all.
    package struct RelatedGroup: Sendable, Decodable {
        package var objectId: Int64
        package var records: [RelatedRecord]
        package var count: Int
    }

    /// A related record's attributes (its geometry is not shown).
    package struct RelatedRecord: Sendable, Decodable {
        package var attributes: FieldValues?
    }

    /// One feature's attachments.
    package struct AttachmentGroup: Sendable, Decodable {
        package var objectId: Int64
        package var attachments: [Attachment]
    }

    package struct Attachment: Sendable, Decodable {
        package var id: Int64
        package var name: String
        package var contentType: String
        package var size: Int64
        package var url: String
    }
}

extension Outcome.RelatedGroup {
    /// `earlier` groups followed by a later part's `groups`: a first group with the `objectId` of the last one
    /// continues it, as the worker splits a group too large for one part (docs/contract/README.md).
    package static func continued(_ earlier: [Self], _ groups: [Self]) -> [Self] {
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
    package static func continued(_ earlier: [Self], _ groups: [Self]) -> [Self] {
        var earlier = earlier
        var groups = groups[...]
        if let first = groups.first, earlier.last?.objectId == first.objectId {
            earlier[earlier.count - 1].attachments += first.attachments
            groups = groups.dropFirst()
        }
        return earlier + groups
    }
}
