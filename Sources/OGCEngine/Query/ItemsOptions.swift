import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// The items parameters beyond Part 1's filters a query sends: `datetime` for its time window, and — only
/// where the server declares them — `sortby`, `properties` and `skipGeometry`. Decided once per query.
struct ItemsOptions: Sendable {
    var parameters: [QueryParameter] = []
    /// Whether `sortby` was sent: the arriving sequence is then checked and, while it holds, read no further
    /// than the order needs.
    var serverSorts = false

    /// `properties` fields to ask for (nil: all), whether geometry is needed, for the query and `service`.
    static func plan(
        _ query: ServiceQuery, service: ServiceDescription, collection: CollectionMetadata, properties: [String]?,
        needsGeometry: Bool, sortable: Bool
    ) throws(FeatureServiceError) -> ItemsOptions {
        var options = ItemsOptions()
        if let time = query.time {
            guard collection.temporalExtent != nil else {
                throw OGCFailure.invalidQuery(
                    collection.url, "the query has a time window but the collection \(collection.id) has no temporal "
                        + "extent (`extent.temporal.interval`), so it cannot be selected by time")
            }
            options.parameters.append(QueryParameter("datetime", datetime(time)))
        }
        if sortable, !query.orderBy.isEmpty, service.supportsSorting {
            options.parameters.append(QueryParameter("sortby", sortby(query.orderBy)))
            options.serverSorts = true
        }
        if let properties, service.supportsPropertySelection {
            // A list naming no property may be read as "all" by some servers and as "none" by others: either is
            // fine (only the named ones are read), but an empty value risks a 400, so the id-only case sends none.
            if !properties.isEmpty { options.parameters.append(QueryParameter("properties", properties.joined(separator: ","))) }
        }
        if !needsGeometry, service.supportsSkipGeometry {
            options.parameters.append(QueryParameter("skipGeometry", "true"))
        }
        return options
    }

    /// `datetime`: an instant as one value, else `start/end` with `..` for an open end (RFC 3339 UTC).
    static func datetime(_ window: TimeWindow) -> String {
        if window.isInstant, let start = window.start { return RFC3339.string(fromMilliseconds: start) }
        let start = window.start.map(RFC3339.string(fromMilliseconds:)) ?? ".."
        let end = window.end.map(RFC3339.string(fromMilliseconds:)) ?? ".."
        return start + "/" + end
    }

    /// `sortby`: `+f,-g`.
    static func sortby(_ terms: [OrderTerm]) -> String {
        terms.map { ($0.descending ? "-" : "+") + $0.field }.joined(separator: ",")
    }
}
