import QueryLanguage

/// The rows relationships join and the attachments of the layers that have them.
extension SampleDataset {
    /// The indices (ascending) of the rows of `relationship`'s other end related to feature `index` of `layer`.
    func relatedIndices(_ relationship: SampleRelationship, from layer: SampleLayer, index: Int) -> [Int32] {
        switch (relationship.origin, relationship.destination, layer == relationship.origin) {
        case (_, .parcelAssessments, true): return assessments.rows.rows(ofParcel: index).map { Int32(truncatingIfNeeded: $0) }
        case (_, .parcelOwners, true): return owners.rows.rows(ofParcel: index).map { Int32(truncatingIfNeeded: $0) }
        case (_, .parcelAssessments, false): return [Int32(truncatingIfNeeded: assessments.rows.parcel(ofRow: index))]
        case (_, .parcelOwners, false): return [Int32(truncatingIfNeeded: owners.rows.parcel(ofRow: index))]
        case (.states, .counties, true):
            guard case .string(let name) = usa.states.value(1, index) else { return [] }
            return countiesByState[name] ?? []
        case (.states, .counties, false):
            guard case .string(let name) = usa.counties.value(2, index), let state = stateByName[name] else { return [] }
            return [state]
        default:
            return []
        }
    }

    /// The attachments of a layer with `hasAttachments` (parcels and cities), nil for the others.
    func attachments(_ layer: SampleLayer) -> SampleAttachments? {
        switch layer {
        case .parcels: SampleAttachments(kind: .parcels, featureCount: parcelCount, seed: seed)
        case .cities: SampleAttachments(kind: .cities, featureCount: usa.cities.count, seed: seed)
        default: nil
        }
    }

    /// Counties by their STATE_NAME (field 2) and states by theirs (field 1).
    static func stateCounties(_ usa: USAGenerator.Layers) -> ([String: [Int32]], [String: Int32]) {
        var counties: [String: [Int32]] = [:]
        for index in 0..<usa.counties.count {
            if case .string(let name) = usa.counties.value(2, index) { counties[name, default: []].append(Int32(index)) }
        }
        var states: [String: Int32] = [:]
        for index in 0..<usa.states.count {
            if case .string(let name) = usa.states.value(1, index), states[name] == nil { states[name] = Int32(index) }
        }
        return (counties, states)
    }
}
