import EngineExecution
import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// Gathers one collection's answer from its pages: deduplicates by `id` (type kept: `1` and `"1"` differ;
/// features without `id` are kept, never deduplicated), re-checks every feature against the where clause and
/// the exact spatial relation (a server that returns what it should have filtered out is noted), keeps the
/// ids or GeoJSON the result asks for, and stops at `maxFeatures` or when the result budget refuses.
struct CheckedItemCollector {
    enum Keep {
        case nothing
        case ids
        case features(outFields: [String]?, returnGeometry: Bool)
    }

    let filter: FilterPlan
    let spatial: SpatialPlan
    let keep: Keep
    let maxFeatures: Int?
    let budget: ResultBudget
    /// Whether the server was asked to apply the whole where clause (CQL2, or parameters that are all of it): a
    /// feature it returns that the clause does not select is a lie. (Part of a clause sent as parameters is
    /// not judged: the rest legitimately drops features here.)
    let serverFiltered: Bool
    /// `objectIds`: only features whose typed id is one of these (no standard parameter: checked here).
    let objectIDs: Set<FeatureID>?
    /// What the worker computes from the selection (statistics, distinct, extent, an order); each matching
    /// feature goes there instead of into ``ids``/``json``.
    private(set) var aggregator: SelectionAggregator?
    /// Why the aggregation cannot go on (the result budget); the runner throws it.
    private(set) var failure: FeatureServiceError?

    private(set) var ids: [FeatureID?] = []
    private(set) var json: [ArraySlice<UInt8>] = []
    /// Features kept so far, held or handed to the result store (what `maxFeatures` counts).
    private(set) var kept = 0
    /// The layer streams to the result store: what is kept is handed over after each page (``stopHolding()``),
    /// not reserved from the budget, and only the id set remains here.
    private(set) var streamed = false
    /// Each id seen, with its index among the kept features (-1: seen, not kept).
    private var seen: [FeatureID: Int] = [:]
    /// Distinct features the server sent (what its `numberMatched` counts), before local filtering.
    private(set) var arrived = 0
    /// Features that passed every local check.
    private(set) var matched = 0
    /// Features the server returned for its filter that the filter does not select (where clause or bbox).
    private(set) var rejectedServerMatches = 0
    private(set) var cutByMaxFeatures = false
    private(set) var cutByBudget = false
    /// Every feature that arrived had an `id` (tiling relies on ids).
    private(set) var allHadIds = true
    /// The clause's undeclared fields no feature has had so far (lowercased): see ``FilterPlan/undeclaredFields``.
    private(set) var fieldsNotSeen: Set<String>
    /// Where each kept feature belongs: its sequence (the untiled pages 0, tile `i` is `i + 1`) and place in
    /// it, so tiles arriving in any order are put back in one order (``putInSequenceOrder()``).
    private var sortKeys: [SortKey] = []
    /// Features seen so far per sequence.
    private var positions: [Int: Int] = [:]

    struct SortKey: Comparable {
        var sequence: Int
        var position: Int

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.sequence, lhs.position) < (rhs.sequence, rhs.position)
        }
    }

    init(
        filter: FilterPlan, spatial: SpatialPlan, keep: Keep, maxFeatures: Int?, budget: ResultBudget, serverFiltered: Bool,
        objectIDs: Set<FeatureID>? = nil, aggregator: SelectionAggregator? = nil
    ) {
        self.objectIDs = objectIDs
        self.aggregator = aggregator
        self.filter = filter
        self.spatial = spatial
        self.keep = keep
        self.maxFeatures = maxFeatures
        self.budget = budget
        self.serverFiltered = serverFiltered
        self.fieldsNotSeen = Set(filter.undeclaredFields.map { $0.lowercased() })
    }

    var isCut: Bool { cutByMaxFeatures || cutByBudget || failure != nil }

    /// Takes one page's features (fetched with bbox `box`, if any); false once the collector is full.
    /// `accept` decides, per feature with its geometry, whether this sequence owns it (tiles: each feature
    /// counts once); nil accepts every feature.
    mutating func add(
        _ features: [RawFeature], box: [Double]?, sequence: Int = 0, accept: ((Geometry?) -> Bool)? = nil
    ) -> Bool {
        for feature in features {
            guard !isCut else { return false }
            let position = positions[sequence, default: 0]
            positions[sequence] = position + 1
            let key = SortKey(sequence: sequence, position: position)
            let id = feature.featureID
            guard let id else {
                allHadIds = false
                var geometry: Geometry?
                if let accept {
                    geometry = Self.geometry(feature)
                    if !accept(geometry) { continue }
                }
                _ = take(feature, id: nil, key: key, box: box, geometry: geometry, decoded: accept != nil)
                continue
            }
            if let earlier = seen[id] {
                // A copy seen before: the same feature. The earliest sequence's place is kept, whichever came first.
                if earlier >= 0, earlier < sortKeys.count, key < sortKeys[earlier] { sortKeys[earlier] = key }
                continue
            }
            seen[id] = take(feature, id: id, key: key, box: box, geometry: nil, decoded: false) ?? -1
        }
        return !isCut
    }

    /// Checks one new feature and keeps it if it matches; its index among those kept, or nil.
    private mutating func take(
        _ feature: RawFeature, id: FeatureID?, key: SortKey, box: [Double]?, geometry: Geometry?, decoded: Bool
    ) -> Int? {
        arrived += 1
        let properties = needsProperties ? feature.parsed(feature.properties)?.objectValue : nil
        if !fieldsNotSeen.isEmpty, let properties {
            for name in properties.keys where fieldsNotSeen.contains(name.lowercased()) { fieldsNotSeen.remove(name.lowercased()) }
        }
        if let objectIDs, !(id.map(objectIDs.contains) ?? false) { return nil }
        if !filter.matches(properties) {
            if serverFiltered { rejectedServerMatches += 1 }
            return nil
        }
        if spatial.hasLocalFilter {
            let geometry = decoded ? geometry : Self.geometry(feature)
            if !spatial.matches(geometry) {
                if let box, SpatialPlan.isOutside(geometry, box: box) { rejectedServerMatches += 1 }
                return nil
            }
        }
        matched += 1
        if aggregator != nil {
            aggregate(feature, id: id, properties: properties)
            return nil
        }
        let index = ids.count
        keepFeature(feature, id: id, properties: properties)
        guard ids.count > index else { return nil }
        sortKeys.append(key)
        // A streamed feature's index does not last (what is held is handed over): seen, not held.
        return streamed ? nil : index
    }

    /// Hands a matching feature to the aggregator (moved out while it works, so its state is not copied).
    private mutating func aggregate(_ feature: RawFeature, id: FeatureID?, properties: [String: ParsedJSON]?) {
        guard var aggregator else { return }
        self.aggregator = nil
        let keep = keep
        do {
            try aggregator.add(feature, id: id, properties: properties) {
                guard case .features(let outFields, let returnGeometry) = keep else { return .init(id: id, json: nil) }
                return .init(id: id, json: Self.write(feature, id: id, properties: properties, outFields: outFields, returnGeometry: returnGeometry))
            }
        } catch {
            failure = error
        }
        self.aggregator = aggregator
    }

    /// The ordered selection's items, best first (empty for other computations).
    mutating func finishOrdered() -> [SelectionAggregator.OrderedItem] {
        guard case .ordered(var selection)? = aggregator?.computation else { return [] }
        aggregator = nil
        return selection.finish()
    }

    /// Forgets what is held (the result store's writer has it): the features or ids and their places. The id
    /// set stays, so a later page's copies are still dropped; from now on nothing is held (``streamed``).
    mutating func dropHeld() {
        if !streamed { seen = seen.mapValues { _ in -1 } }
        streamed = true
        ids = []
        json = []
        sortKeys = []
    }

    /// Orders what is kept by sequence, then by place within it: a tiled collection's answer is then the same
    /// whichever tile answered first.
    mutating func putInSequenceOrder() {
        guard sortKeys.count == ids.count, zip(sortKeys, sortKeys.dropFirst()).contains(where: { $0.0 > $0.1 }) else { return }
        let order = sortKeys.indices.sorted { sortKeys[$0] < sortKeys[$1] }
        ids = order.map { ids[$0] }
        if json.count == order.count { json = order.map { json[$0] } }
        sortKeys = order.map { sortKeys[$0] }
    }

    /// Whether a feature's properties are read: for the where clause, or to keep only `outFields`.
    private var needsProperties: Bool {
        if filter.local != nil { return true }
        if case .features(let outFields?, _) = keep, !outFields.isEmpty { return true }
        if let aggregator, !aggregator.fields.isEmpty { return true }
        return false
    }

    private mutating func keepFeature(_ feature: RawFeature, id: FeatureID?, properties: [String: ParsedJSON]?) {
        switch keep {
        case .nothing:
            return
        case .ids:
            guard kept < maxFeatures ?? .max else {
                cutByMaxFeatures = true
                return
            }
            guard streamed || budget.reserve(16) else {
                cutByBudget = true
                return
            }
            ids.append(id)
            kept += 1
        case .features(let outFields, let returnGeometry):
            guard kept < maxFeatures ?? .max else {
                cutByMaxFeatures = true
                return
            }
            let bytes = Self.write(feature, id: id, properties: properties, outFields: outFields, returnGeometry: returnGeometry)
            guard streamed || budget.reserve(bytes.count + 16) else {
                cutByBudget = true
                return
            }
            ids.append(id)
            json.append(bytes[...])
            kept += 1
        }
    }
}
