import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// One attachment as `queryAttachments` or a feature's `attachments` resource lists it.
struct AttachmentRow: Sendable, Hashable {
    var id: Int64
    var name: String
    var contentType: String
    var size: Int64
    var keywords: String
    /// The service's `url` for it, when it gave one (it may carry a token; ``AttachmentURL`` strips it).
    var url: String?
}

/// One `queryAttachments` answer: each feature's attachments.
struct AttachmentsPage: Sendable {
    var groups: [(objectId: Int64, rows: [AttachmentRow])]
    var exceededTransferLimit: Bool

    var rowCount: Int { groups.reduce(0) { $0 + $1.rows.count } }
}

extension ArcGISResponse {
    /// A `queryAttachments` answer (`attachmentGroups` of `parentObjectId` and `attachmentInfos`).
    static func attachments(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> AttachmentsPage {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "attachment groups")
        var groups: [(objectId: Int64, rows: [AttachmentRow])] = []
        for (position, group) in (members["attachmentGroups"]?.arrayValue ?? []).enumerated() {
            guard let objectId = group["parentObjectId"]?.int64Value else {
                throw context.malformed("has an attachment group (number \(position + 1)) without an integer parentObjectId")
            }
            groups.append((objectId, try attachmentInfos(group["attachmentInfos"], context: context)))
        }
        return AttachmentsPage(groups: groups, exceededTransferLimit: members["exceededTransferLimit"]?.boolValue ?? false)
    }

    /// A feature's `<layer>/<objectId>/attachments` resource: `{"attachmentInfos": [...]}`.
    static func featureAttachments(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> [AttachmentRow] {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "attachment infos")
        guard members["attachmentInfos"] != nil else {
            throw context.malformed("has no \"attachmentInfos\", so it is not a feature's attachments")
        }
        return try attachmentInfos(members["attachmentInfos"], context: context)
    }

    private static func attachmentInfos(_ value: ParsedJSON?, context: ResponseContext) throws(FeatureServiceError) -> [AttachmentRow] {
        var rows: [AttachmentRow] = []
        for info in value?.arrayValue ?? [] {
            guard let id = info["id"]?.int64Value ?? info["attachmentid"]?.int64Value else {
                throw context.malformed("has an attachment without an integer id")
            }
            rows.append(
                AttachmentRow(
                    id: id, name: info["name"]?.stringValue ?? "", contentType: info["contentType"]?.stringValue ?? "",
                    size: info["size"]?.int64Value ?? 0, keywords: info["keywords"]?.stringValue ?? "",
                    url: info["url"]?.stringValue))
        }
        return rows
    }
}
