import EngineExecution
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// What the worker computes from every feature of a collection's selection, one feature at a time as pages
/// arrive (OGC API has no aggregation standard): statistics per group, distinct combinations, the extent, or
/// the first `maxFeatures` ids or features in an `orderBy`. It holds only what the answer needs (groups,
/// combinations, the best N; percentiles their values), and reserves what grows from the request's result
/// budget, as the ArcGIS engine's sinks do, with the same messages.
struct SelectionAggregator {
    enum Computation {
        case statistics(GroupedStatistics)
        case distinct(DistinctRows)
        case extent(ExtentAccumulator)
        case ordered(OrderedSelection<FeatureTieBreak, OrderedItem>)
    }

    /// One feature kept by an ordered selection: its id, and its GeoJSON for `result: features`.
    struct OrderedItem {
        var id: FeatureID?
        var json: [UInt8]?
    }

    private(set) var computation: Computation
    /// The properties each feature's record holds, in the computation's column order.
    let fields: [String]
    /// Fields whose strings are instants (declared `date`/`date-time` by the queryables).
    let temporalFields: Set<String>
    let budget: ResultBudget
    let layer: String
    private var reserved = 0
    /// Ordered selections: the server was sent `sortby`, and the sequence so far holds to it.
    private(set) var serverOrderHolds: Bool
    private var previousKey: [AttributeValue]?

    init(_ computation: Computation, fields: [String], temporalFields: Set<String>, budget: ResultBudget, layer: String, serverSorts: Bool = false) {
        self.computation = computation
        self.fields = fields
        self.temporalFields = temporalFields
        self.budget = budget
        self.layer = layer
        self.serverOrderHolds = serverSorts
    }

    var needsGeometry: Bool {
        if case .extent = computation { return true }
        return false
    }

    /// Whether features are kept whole (`result: features` in an order): the collector writes their GeoJSON.
    var isOrdered: Bool {
        if case .ordered = computation { return true }
        return false
    }

    /// Takes one feature of the selection; false when a server-ordered sequence has passed everything the
    /// order can still want (reading may stop). Throws when the result budget cannot hold what it needs.
    mutating func add(
        _ feature: RawFeature, id: FeatureID?, properties: [String: ParsedJSON]?, item: () -> OrderedItem
    ) throws(FeatureServiceError) -> Bool {
        let record = FilterPlan.record(properties, fields: fields, temporalFields: temporalFields)
        switch computation {
        case .statistics(var statistics):
            computation = .extent(ExtentAccumulator())  // Released while mutated, so the groups are not copied.
            defer { computation = .statistics(statistics) }
            try statistics.add(record)
            try reserve(statistics.heldValues, unit: 16) { [layer] in
                "percentiles over \(layer) hold \($0) values, more than the request's result budget; narrow "
                    + "the selection or ask for other statistics"
            }
        case .distinct(var rows):
            computation = .extent(ExtentAccumulator())
            defer { computation = .distinct(rows) }
            rows.add(record)
            try reserve(rows.count, unit: 64) { [layer] in
                "\(layer) has more distinct combinations (\($0) so far) than the request's result budget holds; "
                    + "name fewer outFields or narrow the selection"
            }
        case .extent(var extent):
            extent.add(geometry: CheckedItemCollector.geometry(feature))
            computation = .extent(extent)
        case .ordered(var selection):
            computation = .extent(ExtentAccumulator())
            defer { computation = .ordered(selection) }
            selection.add(key: record, id: FeatureTieBreak(id), item: item())
            return checkServerOrder(record, limit: selection.limit, order: selection.order)
        }
        return true
    }

    /// Follows a server-sorted sequence and notes when it breaks the order. Reading never stops early: a
    /// server's order is a claim (its database's null placement, pages it may hand out of sequence, `sortby` it
    /// ignores while sending a few features in order by chance), so the whole selection is read, the worker's
    /// exact selection answers, and the server is credited only when all of it arrived in that order.
    private mutating func checkServerOrder(_ key: [AttributeValue], limit: Int?, order: AttributeOrder) -> Bool {
        guard serverOrderHolds else { return true }
        if let previousKey, order.compare(previousKey, key) > 0 {
            serverOrderHolds = false
            return true
        }
        previousKey = key
        return true
    }

    private mutating func reserve(
        _ held: Int, unit: Int, _ message: (Int) -> String
    ) throws(FeatureServiceError) {
        guard held > reserved else { return }
        guard budget.reserve(count: held - reserved, unit: unit) == held - reserved else {
            throw FeatureServiceError(.limitExceeded, message(held), layer: layer)
        }
        reserved = held
    }
}

/// A feature's id as an order's tie-break: ids in ``OrderedFeatureID``'s order, features without one after
/// every feature with one (then by arrival).
struct FeatureTieBreak: Comparable {
    var id: OrderedFeatureID?

    init(_ id: FeatureID?) {
        self.id = id.map(OrderedFeatureID.init)
    }

    static func < (a: FeatureTieBreak, b: FeatureTieBreak) -> Bool {
        switch (a.id, b.id) {
        case (let x?, let y?): x < y
        case (.some, nil): true
        case (nil, _): false
        }
    }
}
