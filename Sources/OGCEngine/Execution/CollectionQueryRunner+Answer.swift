import FeatureService
import Logging

/// The layer's answer from what the collector gathered: count, completeness and who filtered.
extension CollectionQueryRunner {
    func answer(
        _ collector: CheckedItemCollector, matchedByServer: [Int?], countedByServer: Bool, serverComplete: Bool
    ) -> ServiceLayerResult {
        let lied = collector.rejectedServerMatches > 0
        if lied {
            transport.logger.warning(
                "an OGC API server returned features its own filter does not select; the worker filtered them out",
                metadata: [
                    "server": "\(service.landing)", "collection": "\(collection.id)",
                    "layer": "\(collection.url)", "features.rejected": "\(collector.rejectedServerMatches)",
                ])
        }
        let hasFilter = query.whereClause != nil || query.geometry != nil || query.objectIds != nil || query.time != nil
        let filteredBy: FilterSite? = hasFilter ? (serverComplete && !lied ? .server : .client) : nil
        let known = matchedByServer.compactMap { $0 }
        let serverTotal: Int? = known.count == matchedByServer.count && !known.isEmpty ? known.reduce(0, +) : nil
        let authoritative = serverComplete && !lied
        var count = collector.matched
        if authoritative, let serverTotal { count = serverTotal }
        var reason: IncompleteReason?
        if collector.cutByBudget {
            reason = .resultBudget
        } else if collector.cutByMaxFeatures {
            reason = .maxFeatures
        } else if !countedByServer, let serverTotal {
            let mismatch = matchedByServer.count == 1
                ? collector.arrived != serverTotal
                : collector.arrived > serverTotal || collector.arrived < (known.max() ?? 0)
            if mismatch {
                reason = .countMismatch
                transport.logger.warning(
                    "an OGC API collection's numberMatched disagrees with the features that arrived",
                    metadata: [
                        "server": "\(service.landing)", "collection": "\(collection.id)",
                        "numberMatched": "\(serverTotal)", "arrived": "\(collector.arrived)",
                    ])
            }
        }
        let selection: LayerSelection
        switch query.result {
        case .count, .catalog, .statistics, .extent, .distinct, .related, .attachments: selection = .countOnly  // Aggregations: see `aggregated`.
        case .ids: selection = .featureIds(collector.ids)
        case .features: selection = .features(GeoJSONFeatureList(featureIds: collector.ids, json: collector.json))
        }
        return ServiceLayerResult(
            url: collection.url, count: count, isComplete: reason == nil, selection: selection,
            collection: collection.id, filteredBy: filteredBy, incompleteReason: reason)
    }
}
