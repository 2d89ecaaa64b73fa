import Hummingbird
import Logging

/// The `query` operation of a layer.
extension RequestHandler {
    func query(
        _ layer: PublishedLayer, parameters: RequestParameters, format: ResponseFormat, shortPageCap: Int?
    ) throws -> Response {
        recorder.query(layer.layer)
        let definition = layer.definition
        guard definition.supportsQuery, definition.isFeatureLayer else {
            recorder.error()
            return RESTResponseWriter.error(.operationNotSupported, format: format)
        }
        let request: LayerQueryParameters
        let selection: [Int32]
        do {
            request = try LayerQueryParameters(parameters, layer: definition)
            selection = try QueryExecutor.select(request, layer: layer.layer, source: layer.source, cache: cache)
        } catch let error as ArcGISServiceError {
            recorder.error()
            return RESTResponseWriter.error(error, format: format)
        } catch let error as CancellationError {
            throw error
        } catch {
            logger.warning("query failed", metadata: ["layer": "\(layer.layer)", "error": "\(error)"])
            recorder.error()
            let failure = ArcGISServiceError(code: 500, message: "Error performing query operation", details: ["\(error)"])
            return RESTResponseWriter.error(failure, format: format)
        }
        let body: [UInt8]
        if let statistics = request.statistics {
            body = QueryResponseWriter.statistics(statistics, layer, selection)
        } else if request.returnCountOnly {
            body = QueryResponseWriter.count(request, layer, selection)
        } else if request.returnIdsOnly {
            body = QueryResponseWriter.objectIDs(layer, selection)
        } else if request.returnExtentOnly {
            body = QueryResponseWriter.extent(request, layer, selection)
        } else {
            let page = QueryPage(total: selection.count, request: request, layer: definition, shortPageCap: shortPageCap)
            if request.format == .geojson {
                return RESTResponseWriter.resource(
                    GeoJSONResponseWriter.features(request, layer, selection, page), format: .geojson, title: "Query")
            }
            body = QueryResponseWriter.features(request, layer, selection, page)
        }
        let bodyFormat: ResponseFormat = format == .geojson ? .json : format
        return RESTResponseWriter.resource(body, format: bodyFormat, title: "Query: \(definition.name)")
    }
}
