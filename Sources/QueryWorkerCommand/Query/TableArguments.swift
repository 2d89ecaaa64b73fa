import ArgumentParser
import FeatureService
import Foundation

/// `--statistic TYPE:FIELD[:NAME][:P]`: one entry of the contract's `query.statistics`.
///
/// A percentile's third part is its P when it reads as a number (`percentileCont:price:0.5`) and its name
/// otherwise (`percentileCont:price:median:0.5`): names are letters, digits and `_`, so they never read as one.
struct StatisticArgument: Sendable, Hashable {
    var type: StatisticType
    var field: String
    var name: String?
    var percentile: Double?

    static func parse(_ argument: String) throws -> StatisticArgument {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (2...4).contains(parts.count), let type = StatisticType(rawValue: parts[0]) else {
            let types = StatisticType.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("expected TYPE:FIELD[:NAME][:P] with TYPE one of \(types); got '\(argument)'")
        }
        guard !parts[1].isEmpty else { throw ValidationError("the statistic '\(argument)' names no field") }
        var rest = Array(parts.dropFirst(2))
        var percentile: Double?
        if type.isPercentile, let last = rest.last, let value = Double(last) {
            percentile = value
            rest.removeLast()
        }
        guard rest.count <= 1 else {
            throw ValidationError("'\(argument)': only percentileCont and percentileDisc take a P after the name")
        }
        if type.isPercentile, percentile == nil {
            throw ValidationError("\(type.rawValue) needs a percentile: \(type.rawValue):FIELD[:NAME]:P, e.g. 0.5")
        }
        if let name = rest.first, name.isEmpty { throw ValidationError("the statistic '\(argument)' has an empty name") }
        return StatisticArgument(type: type, field: parts[1], name: rest.first, percentile: percentile)
    }
}

/// `--order-by FIELD[:asc|:desc]`: one entry of `query.orderBy`.
struct OrderArgument: Sendable, Hashable {
    var field: String
    var descending: Bool

    static func parse(_ argument: String) throws -> OrderArgument {
        var field = argument
        var descending = false
        if let colon = argument.lastIndex(of: ":") {
            let direction = argument[argument.index(after: colon)...].lowercased()
            guard direction == "asc" || direction == "desc" else {
                throw ValidationError("expected FIELD[:asc|:desc]; '\(direction)' is not a direction")
            }
            descending = direction == "desc"
            field = String(argument[..<colon])
        }
        guard !field.isEmpty else { throw ValidationError("--order-by names no field in '\(argument)'") }
        return OrderArgument(field: field, descending: descending)
    }
}

/// `--time START/END`: `query.time`, each side an RFC 3339 date-time with a zone or `..` for an open end
/// (ISO 8601's notation for open intervals, as OGC API's `datetime` parameter writes them).
struct TimeArgument: Sendable, Hashable {
    var start: String?
    var end: String?

    static func parse(_ argument: String) throws -> TimeArgument {
        let sides = argument.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard sides.count == 2 else {
            throw ValidationError(
                "expected START/END, e.g. 2025-01-01T00:00:00Z/.. (.. for an open end); got '\(argument)'")
        }
        let bounds = sides.map { $0 == ".." || $0.isEmpty ? nil : $0 }
        guard bounds[0] != nil || bounds[1] != nil else {
            throw ValidationError("--time needs at least one bound; omit it for any time")
        }
        return TimeArgument(start: bounds[0], end: bounds[1])
    }
}

/// `--object-ids 1,2,a-17`: `query.objectIds`; a part that reads as an integer is one, any other a string
/// (an OGC feature id).
struct ObjectIdList: Sendable, Hashable {
    var ids: [FeatureID]

    static func parse(_ argument: String) throws -> ObjectIdList {
        var ids: [FeatureID] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { throw ValidationError("expected ids such as 1,2,3; one is empty") }
            let id: FeatureID = Int64(text).map { .integer($0) } ?? .string(text)
            guard !ids.contains(id) else { throw ValidationError("the id \(text) is named twice") }
            ids.append(id)
        }
        return ObjectIdList(ids: ids)
    }
}
