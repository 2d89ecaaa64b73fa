import Foundation
import QueryLanguage
import QueryOutcomes
import SampleFeatureServer

/// What a statistics request must answer: one row per group, with these values (`nil`: SQL's null).
struct ExpectedStatistics: Sendable {
    var url: String
    /// The selection's size: the entry's `count`.
    var count: Int
    /// The `groupBy` field; rows are keyed by its value as text (`null` for a null group).
    var groupField: String
    /// Group value → statistic name → value.
    var groups: [String: [String: Double?]]
    /// Who must have computed the rows: `server` or `worker`.
    var by: String
}

/// The feature-table requests' ground truth, by brute force: plain loops over the values the dataset
/// generated (``SampleDataset/groundTruthValues(_:field:objectIDs:)``), so that neither the sample server's
/// statistics, sort and time code nor the worker's toolkit checks itself.
enum DemoTableTruth {
    /// Count, sum and average of `valueField` per value of `groupField` over the features `ids`, as SQL
    /// computes them: nulls skipped (a group whose values are all null has count 0, sum and avg null), a null
    /// group value is a group of its own.
    static func grouped(
        _ dataset: SampleDataset, _ layer: SampleLayer, ids: [Int], groupField: String, valueField: String,
        names: (count: String, sum: String, avg: String)
    ) throws -> [String: [String: Double?]] {
        let groups = try values(dataset, layer, groupField, ids)
        let values = try values(dataset, layer, valueField, ids)
        var counts: [String: Int] = [:]
        var sums: [String: Double] = [:]
        for (group, value) in zip(groups, values) {
            let key = text(group)
            if counts[key] == nil { counts[key] = 0 }
            guard let number = number(value) else { continue }
            counts[key, default: 0] += 1
            sums[key, default: 0] += number
        }
        var table: [String: [String: Double?]] = [:]
        for (key, count) in counts {
            let sum = count > 0 ? sums[key] : nil
            table[key] = [names.count: Double(count), names.sum: sum, names.avg: sum.map { $0 / Double(count) }]
        }
        return table
    }

    /// `ids` ordered by `field` descending, nulls first (PostgreSQL's default for `DESC`), ties by OBJECTID
    /// ascending (the contract's tie-break).
    static func descending(_ dataset: SampleDataset, _ layer: SampleLayer, ids: [Int], field: String) throws -> [Int] {
        let keyed = zip(ids, try values(dataset, layer, field, ids)).map { (id: $0, value: number($1)) }
        return keyed.sorted { left, right in
            switch (left.value, right.value) {
            case (nil, nil): return left.id < right.id
            case (nil, _): return true
            case (_, nil): return false
            case (let first?, let second?): return first != second ? first > second : left.id < right.id
            }
        }.map(\.id)
    }

    /// The OBJECTIDs (ascending) of `layer`'s features whose date `field` lies in [`start`, `end`], both
    /// RFC 3339 date-times and both ends included; a null date never matches.
    static func within(_ dataset: SampleDataset, _ layer: SampleLayer, field: String, start: String, end: String) throws -> [Int] {
        let (first, last) = (try milliseconds(start), try milliseconds(end))
        let ids = dataset.objectIDs(layer)
        return zip(ids, try values(dataset, layer, field, ids)).compactMap { (id: Int, value: AttributeValue) -> Int? in
            guard case .date(let date) = value, date >= first, date <= last else { return nil }
            return id
        }
    }

    private static func values(_ dataset: SampleDataset, _ layer: SampleLayer, _ field: String, _ ids: [Int]) throws -> [AttributeValue] {
        guard let values = dataset.groundTruthValues(layer, field: field, objectIDs: ids) else {
            throw DemoPlanError(message: "the sample layer \(layer.path) has no field \(field)")
        }
        return values
    }

    /// A value as a number; `nil` for null and text.
    static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let number), .date(let number): Double(number)
        case .double(let number): number
        case .null, .string: nil
        }
    }

    /// A group value as the outcome's cell shows it (``Outcome/FieldValue/description``).
    static func text(_ value: AttributeValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number), .date(let number): String(number)
        case .double(let number): "\(number)"
        case .string(let text): text
        }
    }

    private static func milliseconds(_ text: String) throws -> Int64 {
        let date = try Date(text, strategy: .iso8601)
        return Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }
}
