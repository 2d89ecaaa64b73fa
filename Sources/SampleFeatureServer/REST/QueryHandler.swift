import Hummingbird
import Logging

/// The `query` operation of a layer.
extension RequestHandler {
    func query(
        _ layer: PublishedLayer, parameters: RequestParameters, format: ResponseFormat, shortPageCap: Int?
    ) throws -> Response {
        recorder.query(layer.layer)
        let definition = layer.definition
        guard definition.supportsQuery, definition.isFeatureLayer || definition.isTable else {
            recorder.error()
            return RESTResponseWriter.error(.operationNotSupported, format: format)
        }
        let request: LayerQueryParameters
        let selection: [Int32]
        let aggregate: [UInt8]?
        do {
            request = try LayerQueryParameters(parameters, layer: definition, options: layer.options)
            selection = try QueryExecutor.select(
                request, layer: layer.layer, source: layer.source, timeField: definition.timeInfo?.field, cache: cache)
            aggregate = try Self.aggregate(request, layer, selection)
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
        if let aggregate {
            body = aggregate
        } else if request.returnCountOnly {
            body = QueryResponseWriter.count(request, layer, selection)
        } else if request.returnIdsOnly {
            body = QueryResponseWriter.objectIDs(layer, selection)
        } else if request.returnExtentOnly {
            // FS doc: "the response will return both the count and the extent"; MS: the count only with returnCountOnly.
            body = definition.layer.service.type == "FeatureServer"
                ? QueryResponseWriter.count(request, layer, selection) : QueryResponseWriter.extent(request, layer, selection)
        } else {
            let page = QueryPage(
                total: selection.count, request: request, layer: definition, shortPageCap: shortPageCap, options: layer.options)
            if request.format == .geojson {
                return RESTResponseWriter.resource(
                    GeoJSONResponseWriter.features(request, layer, selection, page), format: .geojson, title: "Query")
            }
            body = QueryResponseWriter.features(request, layer, selection, page)
        }
        let bodyFormat: ResponseFormat = format == .geojson ? .json : format
        return RESTResponseWriter.resource(body, format: bodyFormat, title: "Query: \(definition.name)")
    }

    /// The answer of a statistics or distinct-values query, or nil for any other query.
    private static func aggregate(
        _ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32]
    ) throws(ArcGISServiceError) -> [UInt8]? {
        var table: AggregateTable
        if let statistics = request.statistics {
            if layer.options.has(.statisticsFail) { throw AggregateResponseWriter.cannotComplete }
            table = AggregateTable.statistics(
                statistics, groupBy: request.groupBy, layer: layer, selection: selection,
                upperCaseNames: layer.options.has(.uppercaseStatisticNames))
        } else if request.returnDistinctValues {
            table = AggregateTable.distinct(request.outFields, layer: layer, selection: selection)
            if request.returnCountOnly { return AggregateResponseWriter.count(table.rows.count) }
        } else {
            return nil
        }
        try table.sort(request.aggregateOrder)
        let page = QueryPage(aggregateTotal: table.rows.count, request: request, layer: layer.definition, options: layer.options)
        let hosted = layer.definition.layer.service.type == "FeatureServer"
        return AggregateResponseWriter.rows(table, page, objectIdField: hosted ? layer.definition.objectIdField : nil)
    }
}
