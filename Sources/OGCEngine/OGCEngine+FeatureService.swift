import EngineExecution
package import FeatureService

/// The OGC engine behind the worker's seam: it queries `ogc` targets (a landing page URL and the collection
/// ids in `layers`; every feature collection when `layers` is nil) and browses them for `result: catalog`.
extension OGCEngine: FeatureServiceEngine {
    package var kinds: Set<ServiceKind> { [.ogc] }

    package func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]] {
        if query.result == .catalog {
            return await OrderedFanOut.map(targets) { target in [await self.catalog(target, credential: query.credential)] }
        }
        if let refusal = await refusalOverLayerLimit(targets, credential: query.credential) { return refusal }
        return await OrderedFanOut.map(targets) { target in
            await self.queryTarget(target, query, budget: budget)
        }
    }

    /// A landing URL as targets and cache keys name it: no trailing slash.
    static func landing(_ target: ServiceTarget) -> String {
        var url = Substring(target.url)
        while url.hasSuffix("/") { url = url.dropLast() }
        return String(url)
    }

    private func queryTarget(_ target: ServiceTarget, _ query: ServiceQuery, budget: ResultBudget) async -> [ServiceLayerOutcome] {
        guard target.kind == .ogc else { return [ServiceLayerOutcome(url: target.url, result: .failure(.unsupported(target)))] }
        let landing = Self.landing(target)
        let service: ServiceDescription
        do {
            service = try await self.service(landing, auth: authentication(query.credential))
        } catch {
            return [ServiceLayerOutcome(url: landing, result: .failure(failure(error, layer: landing)))]
        }
        let ids = target.layers ?? service.collections.filter { $0.itemType.lowercased() == "feature" }.map(\.id)
        return await OrderedFanOut.map(ids) { id in await self.queryCollection(id, of: service, query, budget: budget) }
    }

    /// One failure per target when the targets stand for more collections than
    /// ``OGCEngineConfiguration/maxLayersPerQuery``; nil when they fit. A landing page without `layers` counts
    /// its feature collections (read here, cached for the query); one that cannot be read counts one.
    private func refusalOverLayerLimit(_ targets: [ServiceTarget], credential: String?) async -> [[ServiceLayerOutcome]]? {
        guard let limit = configuration.maxLayersPerQuery else { return nil }
        let auth = authentication(credential)
        var total = 0
        for target in targets {
            if let layers = target.layers {
                total += layers.count
            } else if target.kind == .ogc, let service = try? await service(Self.landing(target), auth: auth) {
                total += service.collections.filter { $0.itemType.lowercased() == "feature" }.count
            } else {
                total += 1
            }
        }
        guard total > limit else { return nil }
        return targets.map { target in
            let error = FeatureServiceError(
                .tooManyLayers,
                "the targets stand for \(total) collections; at most \(limit) are queried for one request (name fewer "
                    + "collections, or split the request)", layer: Self.landing(target))
            return [ServiceLayerOutcome(url: Self.landing(target), result: .failure(error))]
        }
    }

    /// `result: catalog` for one target: the landing page's collections, one outcome.
    private func catalog(_ target: ServiceTarget, credential: String?) async -> ServiceLayerOutcome {
        let auth = authentication(credential)
        let landing = Self.landing(target)
        guard target.kind == .ogc else { return ServiceLayerOutcome(url: target.url, result: .failure(.unsupported(target))) }
        do {
            let service = try await self.service(landing, auth: auth)
            var collections = service.collections
            if let wanted = target.layers {
                // A collection the landing page does not list is an error, as it is for a query.
                if let missing = wanted.first(where: { service.collection($0) == nil }) {
                    let error = FeatureServiceError(
                        .notFound, "\(landing): the landing page lists no collection \"\(missing)\"", layer: landing)
                    return ServiceLayerOutcome(url: landing, result: .failure(error))
                }
                collections = collections.filter { wanted.contains($0.id) }
            }
            let names = await queryableNames(collections, auth: auth)
            let entries = collections.enumerated().map { index, collection in
                CatalogEntry(
                    id: collection.id, title: collection.title, description: collection.description, url: collection.url,
                    extent: collection.extent, temporalExtent: collection.temporalExtent, itemType: collection.itemType,
                    crs: collection.crs, storageCrs: collection.storageCrs,
                    // CQL2 is sent only on queryables: without them, every filter runs in the worker.
                    filterLanguages: names[index] == nil ? [] : service.conformance.filterLanguages, queryables: names[index])
            }
            return ServiceLayerOutcome(url: landing, result: .success(ServiceLayerResult(
                url: landing, count: entries.count, isComplete: true, selection: .catalog(entries))))
        } catch {
            return ServiceLayerOutcome(url: landing, result: .failure(failure(error, layer: landing)))
        }
    }

    /// The queryable names of each collection (nil where none are declared), read at once.
    private func queryableNames(_ collections: [CollectionMetadata], auth: QueryAuthentication) async -> [[String]?] {
        await OrderedFanOut.map(collections) { collection in (try? await self.queryables(of: collection, auth: auth))??.names }
    }
}
