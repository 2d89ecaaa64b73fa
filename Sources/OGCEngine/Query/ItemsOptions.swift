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
        _ query: ServiceQuery, service: ServiceDescription, collection: CollectionMetadata, queryables: Queryables?,
        properties: [String]?, needsGeometry: Bool, sortable: Bool
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
        // Servers refuse a `sortby` or `properties` name they do not know (pygeoapi: 400), and names are
        // case-sensitive: only names the queryables declare are sent, spelt as they spell them.
        if sortable, !query.orderBy.isEmpty, service.supportsSorting,
            let fields = declared(query.orderBy.map(\.field), in: queryables)
        {
            let terms = zip(query.orderBy, fields).map { OrderTerm(field: $1, descending: $0.descending) }
            options.parameters.append(QueryParameter("sortby", sortby(terms)))
            options.serverSorts = true
        }
        // An empty list may be read as "all" or "none", or refused: the id-only case sends none.
        if let properties, !properties.isEmpty, service.supportsPropertySelection, let fields = declared(properties, in: queryables) {
            options.parameters.append(QueryParameter("properties", fields.joined(separator: ",")))
        }
        if !needsGeometry, service.supportsSkipGeometry {
            options.parameters.append(QueryParameter("skipGeometry", "true"))
        }
        return options
    }

    /// Whether the collection's queryables are read for `query`: for its where clause, or to spell the names
    /// `sortby` and `properties` would send.
    static func needsQueryables(_ query: ServiceQuery, service: ServiceDescription) -> Bool {
        if query.whereClause != nil { return true }
        let ordered = !query.orderBy.isEmpty && (query.result == .ids || query.result == .features)
        return (ordered && service.supportsSorting)
            || ((ordered || query.result.isFeatureTable) && service.supportsPropertySelection)
    }

    /// `fields` spelt as the queryables declare them (the exact name, else the one name equal regardless of
    /// case); nil without queryables or when one is not declared.
    static func declared(_ fields: [String], in queryables: Queryables?) -> [String]? {
        guard let names = queryables?.properties.keys else { return nil }
        var spelt: [String] = []
        for field in fields {
            if names.contains(field) {
                spelt.append(field)
                continue
            }
            let matches = names.filter { $0.lowercased() == field.lowercased() }
            guard matches.count == 1, let match = matches.first else { return nil }
            spelt.append(match)
        }
        return spelt
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
