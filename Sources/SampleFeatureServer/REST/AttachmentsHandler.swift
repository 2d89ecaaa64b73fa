import Hummingbird

/// `queryAttachments`, `<oid>/attachments` and `<oid>/attachments/<id>` of a layer with attachments. A layer
/// without them answers each with an ArcGIS 400; queryAttachments also needs `supportsQueryAttachments`.
extension RequestHandler {
    func queryAttachments(
        _ layer: PublishedLayer, parameters: RequestParameters, format: ResponseFormat, urls: AttachmentURLs
    ) -> Response {
        recorder.query(layer.layer)
        let body: [UInt8]
        do throws(ArcGISServiceError) {
            guard let attachments = dataset.attachments(layer.layer), layer.definition.hasAttachments else {
                throw Self.noAttachments
            }
            guard layer.supportsQueryAttachments else {
                throw LayerQueryOptions.refusal("queryAttachments", flag: "supportsQueryAttachments")
            }
            guard format != .geojson else { throw ArcGISServiceError.unsupportedFormat }
            let request = try AttachmentQuery(parameters, layer: layer.definition)
            body = AttachmentsWriter.groups(request.answer(layer, attachments: attachments), urls: request.returnURL ? urls : nil)
        } catch {
            recorder.error()
            return RESTResponseWriter.error(error, format: format)
        }
        return RESTResponseWriter.resource(body, format: format, title: "Query Attachments: \(layer.definition.name)")
    }

    /// `<oid>/attachments?f=json`: the feature's attachment infos (an empty list for a feature without).
    func attachmentInfos(_ layer: PublishedLayer, objectID: String, format: ResponseFormat) -> Response {
        recorder.metadata()
        do throws(ArcGISServiceError) {
            let (attachments, objectID) = try feature(layer, objectID)
            return RESTResponseWriter.resource(
                AttachmentsWriter.infos(attachments.infos(objectID)), format: format == .geojson ? .json : format,
                title: "Attachments")
        } catch {
            recorder.error()
            return RESTResponseWriter.error(error, format: format)
        }
    }

    /// `<oid>/attachments/<id>`: the attachment's bytes with its content type.
    func attachment(_ layer: PublishedLayer, objectID: String, attachmentID: String, format: ResponseFormat) -> Response {
        recorder.metadata()
        do throws(ArcGISServiceError) {
            let (attachments, objectID) = try feature(layer, objectID)
            guard let id = Int(attachmentID), let info = attachments.infos(objectID).first(where: { $0.id == id }) else {
                throw ArcGISServiceError(
                    code: 404, message: "Attachment not found",
                    details: ["Attachment '\(attachmentID.prefix(20))' of feature \(objectID) does not exist."])
            }
            return .bytes(attachments.bytes(info), contentType: info.contentType)
        } catch {
            recorder.error()
            return RESTResponseWriter.error(error, format: format)
        }
    }

    /// The layer's attachments and the feature's OBJECTID: a 400 for a layer without attachments, a 404 for a
    /// feature that does not exist.
    private func feature(_ layer: PublishedLayer, _ text: String) throws(ArcGISServiceError) -> (SampleAttachments, Int) {
        guard layer.definition.hasAttachments, let attachments = dataset.attachments(layer.layer) else { throw Self.noAttachments }
        guard let objectID = Int(text), objectID > 0, layer.source.contains(objectID - 1) else {
            throw ArcGISServiceError(
                code: 404, message: "Feature not found", details: ["Feature with OBJECTID '\(text.prefix(20))' does not exist."])
        }
        return (attachments, objectID)
    }

    static let noAttachments = ArcGISServiceError(
        code: 400, message: "Requested operation is not supported by this service.",
        details: ["The layer does not have attachments (hasAttachments is false)."])
}
