import Hummingbird

/// The `queryRelatedRecords` operation of a layer or table with relationships.
extension RequestHandler {
    func queryRelatedRecords(_ layer: PublishedLayer, parameters: RequestParameters, format: ResponseFormat) -> Response {
        recorder.query(layer.layer)
        let definition = layer.definition
        guard definition.supportsQuery, definition.isFeatureLayer || definition.isTable else {
            recorder.error()
            return RESTResponseWriter.error(.operationNotSupported, format: format)
        }
        let body: [UInt8]
        do throws(ArcGISServiceError) {
            guard format != .geojson else { throw ArcGISServiceError.unsupportedFormat }
            let relationship = try RelatedQueryParameters.relationship(parameters, on: layer.layer)
            guard let related = layers[relationship.related(from: layer.layer)] else {
                throw ArcGISServiceError.layerNotFound(String(relationship.related(from: layer.layer).layerID))
            }
            let request = try RelatedQueryParameters(parameters, origin: layer, related: related.definition)
            let selection = RelatedSelection(request, relationship: relationship, origin: layer, related: related, dataset: dataset)
            if request.returnCountOnly {
                body = RelatedRecordsWriter.counts(selection)
            } else {
                let page = RelatedPage(
                    selection, request: request, limit: related.definition.maxRecordCount,
                    shortChunk: layer.options.has(.relatedShortChunk))
                body = RelatedRecordsWriter.records(request, related: related, selection, page)
            }
        } catch {
            recorder.error()
            return RESTResponseWriter.error(error, format: format)
        }
        return RESTResponseWriter.resource(body, format: format, title: "Query Related Records: \(definition.name)")
    }
}
