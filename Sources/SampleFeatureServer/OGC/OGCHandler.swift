import FeatureQuerySupport
import Hummingbird
import FeatureGeometry
import Logging
import Synchronization

/// The OGC API Features face: discovery documents, items pages and single features, for a mount with its
/// quirks. Faults, the authorizer and statistics are applied by ``RequestHandler`` as for the ArcGIS face.
extension RequestHandler {
    func respondOGC(
        _ route: OGCRoute, request: SampleRequest, token: String?, path: String, shortPageCap: Int?
    ) async throws -> Response {
        let links = OGCLinks(host: request.host, fallbackOrigin: origin.withLock { $0 }, route: route)
        let collection = route.collectionID.flatMap { ogc[$0] }
        if route.requiresKey {
            guard let security else { return failOGC(.notFound("no OGC API at \(route.base)")) }
            guard security.acceptsOGC(request, bearer: token) else {
                return failOGC(OGCError(status: 401, code: "Unauthorized", message: "An API key is required: send it in X-API-Key."))
            }
        }
        if let authorizer {
            let check = AuthorizationRequest(token: token, service: nil, layer: collection?.layer, path: path, method: request.method.rawValue)
            if case .deny(let code, let message) = await authorizer(check) {
                return failOGC(OGCError(status: code == 403 ? 403 : 401, code: code == 403 ? "Forbidden" : "Unauthorized", message: message))
            }
        }
        if route.collectionID != nil, collection == nil {
            return failOGC(.notFound("no collection '\(route.collectionID?.prefix(80) ?? "")'; see \(links.href("/collections"))"))
        }
        switch route.resource {
        case .landing:
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.landing(links))
        case .openAPI:
            recorder.metadata()
            return OGCResponses.json(OGCOpenAPI.document(links, collections: ogc.collections.map(\.id)), contentType: OGCResponses.openAPIType)
        case .conformance:
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.conformance(route.quirks))
        case .collections:
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.collections(ogc, links))
        case .collection:
            guard let collection else { return failOGC(.notFound("no such collection")) }
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.collection(collection, links))
        case .queryables:
            guard let collection, route.quirks.declaresFilter else { return failOGC(.notFound("this API has no queryables")) }
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.queryables(collection, links), contentType: OGCResponses.schemaType)
        case .sortables:
            guard let collection, route.quirks.declaresSorting else { return failOGC(.notFound("this API does not declare sorting")) }
            recorder.metadata()
            return OGCResponses.json(OGCDocuments.queryables(collection, links, sortables: true), contentType: OGCResponses.schemaType)
        case .items:
            guard let collection else { return failOGC(.notFound("no such collection")) }
            recorder.ogcItems(collection.id)
            return try items(collection, request: request, links: links, quirks: route.quirks, shortPageCap: shortPageCap)
        case .item(_, let featureID):
            guard let collection else { return failOGC(.notFound("no such collection")) }
            recorder.ogcItems(collection.id)
            return item(collection, featureID: featureID, request: request, links: links)
        case .notFound:
            return failOGC(.notFound("no such resource: '\(path.prefix(120))'; start at \(links.href(""))"))
        }
    }

    func failOGC(_ error: OGCError) -> Response {
        recorder.error()
        return error.response
    }

    private func items(
        _ collection: OGCCollection, request: SampleRequest, links: OGCLinks, quirks: OGCQuirks, shortPageCap: Int?
    ) throws -> Response {
        let query: OGCItemsQuery
        let selection: OGCSelection
        do {
            query = try OGCItemsQuery(request.parameters, collection: collection, quirks: quirks)
            selection = try OGCSelection.select(query, collection, cache: cache)
        } catch let error as OGCError {
            return failOGC(error)
        } catch let error as CancellationError {
            throw error
        } catch {
            logger.warning("OGC items failed", metadata: ["collection": "\(collection.id)", "error": "\(error)"])
            return failOGC(OGCError(status: 500, code: "ServerError", message: "the selection failed: \(error)"))
        }
        let page = OGCPage(total: selection.count, query: query, quirks: quirks, shortPageCap: shortPageCap)
        var json = JSONWriter(capacity: 512 + page.range.count * (collection.geometryType == .point ? 360 : 560))
        json.raw("{\"type\":\"FeatureCollection\"")
        if let matched = page.numberMatched {
            json.raw(",\"numberMatched\":")
            json.integer(matched)
        }
        json.raw(",\"numberReturned\":")
        json.integer(page.range.count)
        json.raw(",\"links\":[")
        OGCDocuments.link(&json, links.itemsHref(collection.id, request.parameters, next: false), rel: "self", type: OGCResponses.geoJSONType)
        if let next = page.next {
            json.byte(UInt8(ascii: ","))
            OGCDocuments.link(&json, links.itemsHref(collection.id, query.carried + next, next: true), rel: "next",
                              type: OGCResponses.geoJSONType, title: "Next page")
        }
        json.raw("],\"features\":[")
        for position in page.range {
            if position > page.range.lowerBound { json.byte(UInt8(ascii: ",")) }
            OGCFeatureWriter.feature(
                collection, selection.index(at: position), crs: query.crs, to: &json, properties: query.properties,
                skipGeometry: query.skipGeometry)
        }
        json.raw("]}")
        return OGCResponses.json(json.bytes, contentType: OGCResponses.geoJSONType, crs: query.crs)
    }

    private func item(_ collection: OGCCollection, featureID: String, request: SampleRequest, links: OGCLinks) -> Response {
        let parameters = RequestParameters(request.parameters)
        var crs = OGCCRS.crs84
        if let text = parameters["crs"] {
            guard let parsed = OGCCRS(parameter: text) else {
                return failOGC(.invalidParameter("'crs' '\(text.prefix(80))' is not in the collection's crs list"))
            }
            crs = parsed
        }
        guard let id = Int(featureID), id >= 1, collection.source.contains(id - 1) else {
            return failOGC(.notFound("no feature '\(featureID.prefix(40))' in '\(collection.id)'"))
        }
        var json = JSONWriter(capacity: 1_024)
        OGCFeatureWriter.feature(collection, id - 1, crs: crs, to: &json, close: false)
        let path = "/collections/" + OGCLinks.pathSegment(collection.id)
        json.raw(",\"links\":[")
        OGCDocuments.link(&json, links.href(path + "/items/" + String(id)), rel: "self", type: OGCResponses.geoJSONType)
        json.byte(UInt8(ascii: ","))
        OGCDocuments.link(&json, links.href(path), rel: "collection", type: OGCResponses.jsonType)
        json.raw("]}")
        return OGCResponses.json(json.bytes, contentType: OGCResponses.geoJSONType, crs: crs)
    }
}
