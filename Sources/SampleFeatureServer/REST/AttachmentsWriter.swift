import FeatureQuerySupport

/// Where attachment URLs point: the layer's URL as the request reached it (host, secured folder), and the
/// request's `token`, appended to each URL as ArcGIS Online does for secured layers.
struct AttachmentURLs: Sendable {
    /// `http://host:port/arcgis/rest/services/…/FeatureServer/0`.
    let layerURL: String
    let token: String?

    /// `path` is the operation's path (`…/0/queryAttachments`): the layer's is the path without its last step.
    init(origin: String, path: String, token: String?) {
        let layerPath = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        layerURL = origin + layerPath
        self.token = token
    }

    func url(_ objectID: Int, _ attachmentID: Int) -> String {
        let url = "\(layerURL)/\(objectID)/attachments/\(attachmentID)"
        guard let token else { return url }
        return url + "?token=" + Self.percentEncoded(token)
    }

    /// Everything but unreserved characters percent-encoded, so that any token makes a valid query value.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return result
    }
}

/// Writes `queryAttachments` answers and `<oid>/attachments` lists.
enum AttachmentsWriter {
    /// The attachment table's fields as ArcGIS lists them.
    static let fields =
        #"[{"name":"ATTACHMENTID","type":"esriFieldTypeOID","alias":"ATTACHMENTID"},"#
        + #"{"name":"REL_OBJECTID","type":"esriFieldTypeInteger","alias":"REL_OBJECTID"},"#
        + #"{"name":"CONTENT_TYPE","type":"esriFieldTypeString","alias":"CONTENT_TYPE","length":150},"#
        + #"{"name":"ATT_NAME","type":"esriFieldTypeString","alias":"ATT_NAME","length":250},"#
        + #"{"name":"DATA_SIZE","type":"esriFieldTypeInteger","alias":"DATA_SIZE"},"#
        + #"{"name":"KEYWORDS","type":"esriFieldTypeString","alias":"KEYWORDS","length":200}]"#

    /// `{"fields":[..],"attachmentGroups":[{"parentObjectId":O,"parentGlobalId":null,"attachmentInfos":[..]}],
    /// "exceededTransferLimit":false}`; each info has `url` only when `urls` is given (returnUrl=true).
    static func groups(_ answer: AttachmentQuery.Answer, urls: AttachmentURLs?) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + answer.groups.reduce(0) { $0 + $1.infos.count } * 220)
        json.raw("{\"fields\":")
        json.rawText(fields)
        json.raw(",\"attachmentGroups\":[")
        for (position, group) in answer.groups.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"parentObjectId\":")
            json.integer(group.objectID)
            json.raw(",\"parentGlobalId\":null,\"attachmentInfos\":[")
            for (infoPosition, info) in group.infos.enumerated() {
                if infoPosition > 0 { json.raw(",") }
                json.raw("{\"id\":")
                json.integer(info.id)
                json.raw(",\"globalId\":null,\"name\":")
                json.string(info.name)
                json.raw(",\"contentType\":")
                json.string(info.contentType)
                json.raw(",\"size\":")
                json.integer(info.size)
                json.raw(",\"keywords\":")
                json.string(info.keywords)
                json.raw(",\"exifInfo\":null")
                if let urls {
                    json.raw(",\"url\":")
                    json.string(urls.url(group.objectID, info.id))
                }
                json.raw("}")
            }
            json.raw("]}")
        }
        json.raw("],\"exceededTransferLimit\":")
        json.bool(answer.exceededTransferLimit)
        json.raw("}")
        return json.bytes
    }

    /// `{"attachmentInfos":[{"id":..,"contentType":..,"size":..,"name":..,"keywords":..}]}`.
    static func infos(_ infos: [AttachmentInfo]) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + infos.count * 120)
        json.raw("{\"attachmentInfos\":[")
        for (position, info) in infos.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"id\":")
            json.integer(info.id)
            json.raw(",\"contentType\":")
            json.string(info.contentType)
            json.raw(",\"size\":")
            json.integer(info.size)
            json.raw(",\"name\":")
            json.string(info.name)
            json.raw(",\"keywords\":")
            json.string(info.keywords)
            json.raw("}")
        }
        json.raw("]}")
        return json.bytes
    }
}
