import QueryLanguage
import SampleFeatureServer

/// What a `result: related` request must answer: per origin feature, in object id order, the related
/// records' OBJECTIDs in the order the request asks for.
struct ExpectedRelated: Sendable {
    var url: String
    /// The related table's URL: the entry's `relatedTable`.
    var relatedTable: String
    var groups: [(objectId: Int, records: [Int])]
    /// The request has a `relatedOrderBy`: the entry must say who ordered (`orderedBy`).
    var ordered: Bool
}

/// The related requests' ground truth, by brute force: the join is done here with plain loops over the
/// values the dataset generated (``SampleDataset/groundTruthValues(_:field:objectIDs:)``), never by the
/// sample server's relationship code or the worker's.
enum DemoRelatedTruth {
    /// The first parcel after parcel 2 (whose 1,500 rows are too many to show) with `wanted` assessments, and
    /// those assessments' OBJECTIDs by `TaxYear` descending (nulls first, ties by OBJECTID).
    static func assessmentHistory(_ dataset: SampleDataset, wanted: Int) throws -> (parcel: Int, records: [Int]) {
        let candidates = Array(3...min(dataset.parcelCount, 1_000))
        let apns = try values(dataset, .parcels, "APN", candidates)
        var byAPN: [String: [Int]] = [:]
        for apn in apns { if case .string(let key) = apn { byAPN[key] = [] } }
        // The rows' keys are read (the table is OBJECTIDs 1…n) in batches, until a batch after the candidates'
        // rows holds none of them: the table lists its rows parcel by parcel, so the first thousand parcels'
        // rows come first, and the default 2,400,000 parcels' 8 million keys are not all read. (Were the rows
        // in another order, the truth would lack rows and the demo would fail on this request, not pass wrongly.)
        let rowCount = dataset.featureCount(.parcelAssessments)
        var matched = false
        for start in stride(from: 1, through: rowCount, by: 10_000) {
            let rows = Array(start...min(rowCount, start + 9_999))
            var matchedHere = false
            for (row, key) in zip(rows, try values(dataset, .parcelAssessments, "ParcelAPN", rows)) {
                if case .string(let apn) = key, byAPN[apn] != nil {
                    byAPN[apn, default: []].append(row)
                    matchedHere = true
                }
            }
            if matched && !matchedHere { break }
            matched = matched || matchedHere
        }
        for (parcel, apn) in zip(candidates, apns) {
            guard case .string(let key) = apn, let related = byAPN[key], related.count == wanted else { continue }
            let years = try values(dataset, .parcelAssessments, "TaxYear", related).map(DemoTableTruth.number)
            let ordered = zip(related, years).sorted { left, right in
                switch (left.1, right.1) {
                case (nil, nil): left.0 < right.0
                case (nil, _): true
                case (_, nil): false
                case (let first?, let second?): first != second ? first > second : left.0 < right.0
                }
            }
            return (parcel, ordered.map(\.0))
        }
        throw DemoPlanError(message: "no parcel among the first thousand has \(wanted) assessments")
    }

    /// The states `POP2000 > population` (ascending) with their counties (same STATE_NAME, ascending).
    static func countiesOfStates(_ dataset: SampleDataset, population: Int) throws -> [(objectId: Int, records: [Int])] {
        let states = try dataset.groundTruthObjectIDs(.states, where: "POP2000 > \(population)")
        let names = try values(dataset, .states, "STATE_NAME", states)
        let counties = dataset.objectIDs(.counties)
        var byState: [String: [Int]] = [:]
        for (county, name) in zip(counties, try values(dataset, .counties, "STATE_NAME", counties)) {
            if case .string(let state) = name { byState[state, default: []].append(county) }
        }
        return zip(states, names).compactMap { state, name in
            guard case .string(let key) = name, let related = byState[key] else { return nil }
            return (state, related.sorted())
        }
    }

    private static func values(_ dataset: SampleDataset, _ layer: SampleLayer, _ field: String, _ ids: [Int]) throws -> [AttributeValue] {
        guard let values = dataset.groundTruthValues(layer, field: field, objectIDs: ids) else {
            throw DemoPlanError(message: "the sample layer \(layer.path) has no field \(field)")
        }
        return values
    }
}
