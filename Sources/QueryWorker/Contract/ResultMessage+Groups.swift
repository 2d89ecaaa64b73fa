import FeatureQuerySupport
import FeatureService

/// The items of a grouped selection (related records per origin, attachments per feature) as parts count
/// them: one item per record or attachment, and one for a group that has none (an origin whose records
/// `maxFeatures` cut away entirely still says how many it has). Splitting by records rather than by whole
/// groups keeps a result publishable when one origin has more related records than fit in a message: the
/// group continues in the next part under the same `objectId`.
struct GroupedItems: Sendable, Hashable {
    /// The first item of each group.
    private(set) var starts: [Int]
    /// How many items the groups make.
    private(set) var count: Int

    /// The layout of groups holding `members[g]` records or attachments each.
    init(members: [Int]) {
        starts = []
        starts.reserveCapacity(members.count)
        var total = 0
        for count in members {
            starts.append(total)
            total += max(1, count)
        }
        count = total
    }

    /// The group of `item` and its position in the group (0 for a group without members).
    func locate(_ item: Int) -> (group: Int, member: Int) {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= item { low = middle } else { high = middle - 1 }
        }
        return (low, item - starts[low])
    }

    /// The layout of a layer's grouped selection; `nil` for every other selection (their items are their rows).
    static func of(_ layer: ServiceLayerOutcome) -> GroupedItems? {
        guard let selection = layer.answer?.selection else { return nil }
        switch selection {
        case .related(let related): return GroupedItems(members: related.groups.map(\.records.count))
        case .attachments(let groups): return GroupedItems(members: groups.map(\.attachments.count))
        case .countOnly, .objectIds, .featureIds, .features, .catalog, .statistics, .extent, .distinct, .stored: return nil
        }
    }
}

extension ResultMessage {
    /// Bytes item `index` of a grouped selection adds to a part: the record (or attachment) and its comma, plus
    /// its group's opening and closing when it starts a group in this slice (a group's first item, or the
    /// first item of a slice continuing a group).
    func groupedItemSize(_ layer: Int, _ layout: GroupedItems, _ index: Int, first: Bool) -> Int {
        guard let selection = layers[layer].answer?.selection else { return 0 }
        let (group, member) = layout.locate(index)
        let opens = first || member == 0
        let separator = first ? 0 : 1
        switch selection {
        case .related(let related):
            let records = related.groups[group].records
            let record = member < records.count ? records[member].count : 0
            return separator + record + (opens ? JSONWriter.groupFrameSize(related.groups[group]) : 0)
        case .attachments(let groups):
            let attachments = groups[group].attachments
            let attachment = member < attachments.count ? JSONWriter.size(of: attachments[member]) : 0
            return separator + attachment + (opens ? JSONWriter.groupFrameSize(groups[group]) : 0)
        case .countOnly, .objectIds, .featureIds, .features, .catalog, .statistics, .extent, .distinct, .stored:
            return 0
        }
    }

    /// `,"related":[…]` holding items `range`: the groups they belong to, each with its slice of records, its
    /// `objectId` and its `count` (the origin's related records in all, repeated in every slice of the group).
    static func writeRelated(_ related: RelatedSelection, _ layout: GroupedItems, _ range: Range<Int>, to writer: inout JSONWriter) {
        writeGroups("related", layout, range, to: &writer) { group, writer in
            writer.raw("{")
            writer.key("objectId")
            writer.integer(related.groups[group].objectId)
            writer.comma()
            writer.key("records")
            writer.raw("[")
        } member: { group, member, writer in
            let records = related.groups[group].records
            if member < records.count { writer.raw(records[member]) }
        } close: { group, writer in
            writer.raw("]")
            writer.comma()
            writer.key("count")
            writer.integer(related.groups[group].count)
            writer.raw("}")
        }
    }

    /// `,"attachments":[…]` holding items `range`: the features they belong to, each with its slice of
    /// attachments.
    static func writeAttachments(_ groups: [AttachmentGroup], _ layout: GroupedItems, _ range: Range<Int>, to writer: inout JSONWriter) {
        writeGroups("attachments", layout, range, to: &writer) { group, writer in
            writer.raw("{")
            writer.key("objectId")
            writer.integer(groups[group].objectId)
            writer.comma()
            writer.key("attachments")
            writer.raw("[")
        } member: { group, member, writer in
            let attachments = groups[group].attachments
            if member < attachments.count { writer.attachment(attachments[member]) }
        } close: { _, writer in
            writer.raw("]}")
        }
    }

    /// The one shape of grouped slices: each group of the range opened, its members in the range written
    /// with commas between them, and closed.
    private static func writeGroups(
        _ key: StaticString, _ layout: GroupedItems, _ range: Range<Int>, to writer: inout JSONWriter,
        open: (Int, inout JSONWriter) -> Void, member: (Int, Int, inout JSONWriter) -> Void,
        close: (Int, inout JSONWriter) -> Void
    ) {
        writer.comma()
        writer.key(key)
        writer.raw("[")
        var current: Int?
        var hasMember = false
        for item in range {
            let (group, index) = layout.locate(item)
            if group != current {
                if let current {
                    close(current, &writer)
                    writer.comma()
                }
                open(group, &writer)
                current = group
                hasMember = false
            }
            if hasMember { writer.comma() }
            member(group, index, &writer)
            hasMember = true
        }
        if let current { close(current, &writer) }
        writer.raw("]")
    }
}

extension JSONWriter {
    /// `{"id", "name", "contentType", "size", "keywords", "url"}`: one attachment as results carry it.
    mutating func attachment(_ attachment: AttachmentInfo) {
        raw("{")
        key("id")
        integer(attachment.id)
        comma()
        key("name")
        string(attachment.name)
        comma()
        key("contentType")
        string(attachment.contentType)
        comma()
        key("size")
        integer(attachment.size)
        comma()
        key("keywords")
        string(attachment.keywords)
        comma()
        key("url")
        string(attachment.url)
        raw("}")
    }

    /// The bytes ``attachment(_:)`` writes.
    static func size(of attachment: AttachmentInfo) -> Int {
        var writer = JSONWriter(capacity: 128)
        writer.attachment(attachment)
        return writer.bytes.count
    }

    /// The bytes of `{"objectId":O,"records":[],"count":n}` around a related group's records.
    static func groupFrameSize(_ group: RelatedRecordGroup) -> Int {
        var writer = JSONWriter(capacity: 64)
        ResultMessage.writeRelated(
            RelatedSelection(relatedTable: "", groups: [RelatedRecordGroup(objectId: group.objectId, records: [], count: group.count)]),
            GroupedItems(members: [0]), 0..<1, to: &writer)
        return writer.bytes.count - #","related":[]"#.utf8.count
    }

    /// The bytes of `{"objectId":O,"attachments":[]}` around a feature's attachments.
    static func groupFrameSize(_ group: AttachmentGroup) -> Int {
        var writer = JSONWriter(capacity: 64)
        ResultMessage.writeAttachments(
            [AttachmentGroup(objectId: group.objectId, attachments: [])], GroupedItems(members: [0]), 0..<1, to: &writer)
        return writer.bytes.count - #","attachments":[]"#.utf8.count
    }
}
