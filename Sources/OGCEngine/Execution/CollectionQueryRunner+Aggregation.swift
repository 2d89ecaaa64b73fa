import EngineExecution
import FeatureGeometry
import FeatureService
import Logging
import QueryLanguage

/// Feature-table results: OGC API Features has no aggregation standard, so statistics, distinct values and
/// the extent are always the worker's, computed from the complete selection with every feature re-checked;
/// an `orderBy` of ids or features is the server's `sortby` where it declares sorting and its sequence holds,
/// else the worker's exact first `maxFeatures`.
extension CollectionQueryRunner {
    /// What the worker computes for this query, and what it must read of each feature.
    struct WorkerComputation {
        var computation: SelectionAggregator.Computation
        /// Each record's columns.
        var fields: [String]
        /// What `properties` may ask for (nil: every property, the answer publishes them).
        var properties: [String]?
        var needsGeometry: Bool
    }

    /// nil for results the collector keeps as they come (counts, unordered ids and features).
    func workerComputation(filter: FilterPlan, spatial: SpatialPlan) throws(FeatureServiceError) -> WorkerComputation? {
        let filterFields = filter.local == nil ? [] : filter.fieldNames
        func union(_ fields: [String]) -> [String] {
            var all: [String] = []
            for field in fields + filterFields where !all.contains(field) { all.append(field) }
            return all
        }
        let spatialGeometry = spatial.hasLocalFilter
        switch query.result {
        case .count, .catalog, .related, .attachments:
            return nil
        case .ids, .features:
            guard !query.orderBy.isEmpty else { return nil }
            let fields = query.orderBy.map(\.field)
            var limit = query.maxFeatures
            var properties: [String]? = union(fields)
            var geometry = spatialGeometry
            if query.result == .features {
                // Held whole until the end: never more than a features result may hold.
                limit = limit ?? configuration.maxFeaturesInMemory + 1
                properties = query.outFields.contains("*") ? nil : union(query.outFields + fields)
                geometry = geometry || query.returnGeometry
            }
            return WorkerComputation(
                computation: .ordered(OrderedSelection(orderBy: query.orderBy, limit: limit)), fields: fields,
                properties: properties, needsGeometry: geometry)
        case .statistics:
            let statistics = try GroupedStatistics(statistics: query.statistics, groupBy: query.groupBy, layer: layer)
            return WorkerComputation(
                computation: .statistics(statistics), fields: statistics.fields, properties: union(statistics.fields),
                needsGeometry: spatialGeometry)
        case .distinct:
            let rows = try DistinctRows(fields: query.outFields, layer: layer)
            return WorkerComputation(
                computation: .distinct(rows), fields: rows.fields, properties: union(rows.fields), needsGeometry: spatialGeometry)
        case .extent:
            // Features arrive in CRS84: the extent is in WGS 84.
            return WorkerComputation(
                computation: .extent(ExtentAccumulator(spatialReference: .wgs84)), fields: [], properties: union([]),
                needsGeometry: true)
        }
    }

    /// pygeoapi answers a `datetime` outside the collection's temporal extent with 400 "datetime parameter out
    /// of range": an empty selection, not an error.
    func isOutOfTemporalRange(_ error: FeatureServiceError) -> Bool {
        query.time != nil && error.code == .invalidQuery && error.message.lowercased().contains("datetime parameter out of range")
    }

    /// `answer` with the worker's computation as its selection (unchanged for other results).
    func aggregated(
        _ answer: ServiceLayerResult, collector: inout CheckedItemCollector, keep: CheckedItemCollector.Keep, serverSorts: Bool
    ) throws(FeatureServiceError) -> ServiceLayerResult {
        guard let aggregator = collector.aggregator else { return answer }
        var result = answer
        switch aggregator.computation {
        case .statistics(let statistics):
            result.selection = .statistics(try statistics.rows(orderBy: query.orderBy))
            result.aggregatedBy = .worker
            result.orderedBy = query.orderBy.isEmpty ? nil : .worker
        case .distinct(let rows):
            result.selection = .distinct(try rows.rows(orderBy: query.orderBy))
            result.aggregatedBy = .worker
            result.orderedBy = query.orderBy.isEmpty ? nil : .worker
        case .extent(let extent):
            result.selection = .extent(extent.extent)
            result.aggregatedBy = .worker
        case .ordered:
            return ordered(result, collector: &collector, keep: keep, serverSorts: serverSorts, serverOrderHolds: aggregator.serverOrderHolds)
        }
        return result
    }

    /// The ordered ids or features, reserved from the result budget best first (the tail cut when it runs out).
    private func ordered(
        _ answer: ServiceLayerResult, collector: inout CheckedItemCollector, keep: CheckedItemCollector.Keep,
        serverSorts: Bool, serverOrderHolds: Bool
    ) -> ServiceLayerResult {
        var result = answer
        let items = collector.finishOrdered()
        var kept: [SelectionAggregator.OrderedItem] = []
        kept.reserveCapacity(items.count)
        var cutByBudget = false
        for item in items {
            guard budget.reserve((item.json?.count ?? 0) + 16) else {
                cutByBudget = true
                break
            }
            kept.append(item)
        }
        if case .features = keep {
            result.selection = .features(GeoJSONFeatureList(featureIds: kept.map(\.id), json: kept.map { ($0.json ?? [])[...] }))
        } else {
            result.selection = .featureIds(kept.map(\.id))
        }
        if cutByBudget {
            result.isComplete = false
            result.incompleteReason = .resultBudget
        } else if result.incompleteReason == nil, kept.count < collector.matched {
            result.isComplete = false
            result.incompleteReason = .maxFeatures
        }
        if serverSorts, !serverOrderHolds {
            transport.logger.warning(
                "an OGC API server returned features out of the `sortby` order it was asked for; the worker sorted them",
                metadata: [
                    "server": "\(service.landing)", "collection": "\(collection.id)", "layer": "\(collection.url)",
                    "sortby": "\(ItemsOptions.sortby(query.orderBy))",
                ])
        }
        result.orderedBy = serverSorts && serverOrderHolds ? .server : .worker
        return result
    }
}
