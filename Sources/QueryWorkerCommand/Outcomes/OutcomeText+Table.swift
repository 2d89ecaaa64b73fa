import FeatureQueryClient
import FeatureService
import QueryOutcomes

/// The columns a feature-table result is printed in: the request's order (group fields, then statistic
/// names; distinct's out fields), since a decoded JSON object has lost its members' order. Members the
/// request did not name (a newer worker's) follow, sorted.
struct TableColumns: Sendable, Hashable {
    var group: [String] = []
    var statistics: [String] = []
    var distinct: [String] = []
    /// Whether the request asked for an extent: a result's `"extent": null` (an empty selection) reads as
    /// no extent at all once decoded.
    var extent = false

    /// The columns of `query`: its names, and the default names of unnamed statistics.
    init(query: Query) {
        group = query.groupBy ?? []
        statistics = (query.statistics ?? []).map { statistic in
            statistic.name ?? StatisticDefinition.defaultName(
                type: StatisticType(rawValue: statistic.type) ?? .count, field: statistic.field)
        }
        distinct = query.outFields ?? []
        extent = query.result == .extent
    }

    init(group: [String] = [], statistics: [String] = [], distinct: [String] = [], extent: Bool = false) {
        self.group = group
        self.statistics = statistics
        self.distinct = distinct
        self.extent = extent
    }
}

extension OutcomeText {
    /// How many statistics or distinct rows a block shows before eliding the rest.
    static let shownRows = 200

    /// A layer's statistics as a table (group fields, then statistic names), its distinct rows as a table of
    /// the out fields, or its extent on one line; who ordered and who computed, when the result says.
    static func tableLines(_ layer: Outcome.Layer, columns: TableColumns) -> [String] {
        var lines: [String] = []
        var sites: [String] = []
        if let site = layer.orderedBy { sites.append("ordered by the \(site)") }
        if let site = layer.statisticsBy { sites.append("statistics by the \(site)") }
        if let site = layer.distinctBy { sites.append("distinct by the \(site)") }
        if !sites.isEmpty { lines.append("    " + sites.joined(separator: ", ")) }
        if let rows = layer.statistics {
            let group = names(columns.group, in: rows.map(\.group))
            let values = names(columns.statistics, in: rows.map(\.values))
            lines += table(header: group + values, rows: rows.prefix(shownRows).map { row in
                group.map { row.group[$0]?.description ?? "" } + values.map { row.values[$0]?.description ?? "" }
            })
            if rows.count > shownRows { lines.append("    … (\(grouped(rows.count)) rows in all)") }
        }
        if let rows = layer.distinct {
            let fields = names(columns.distinct, in: rows)
            lines += table(header: fields, rows: rows.prefix(shownRows).map { row in fields.map { row[$0]?.description ?? "" } })
            if rows.count > shownRows { lines.append("    … (\(grouped(rows.count)) rows in all)") }
        }
        if columns.extent || layer.extent != nil {
            if let extent = layer.extent {
                let reference = extent.spatialReference.map { "  wkid \($0.wkid)" } ?? ""
                let corners = [extent.xmin, extent.ymin, extent.xmax, extent.ymax].map(number)
                lines.append("    extent \(corners[0]), \(corners[1]) – \(corners[2]), \(corners[3])\(reference)")
            } else {
                lines.append("    extent none (no feature matches)")
            }
        }
        return lines
    }

    /// `3` for a whole number, `3.5` otherwise: a box's corners read as they were sent.
    private static func number(_ value: Double) -> String {
        value.rounded(.towardZero) == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// `known` followed by the names the rows have beyond them, sorted.
    private static func names(_ known: [String], in rows: [Outcome.FieldValues]) -> [String] {
        let extra = Set(rows.flatMap { $0.pairs.map(\.name) }).subtracting(known)
        return known + extra.sorted()
    }

    /// Left-aligned columns, two spaces apart, under a header line; indented as a layer's lines are.
    static func table(header: [String], rows: [[String]]) -> [String] {
        guard !header.isEmpty else { return [] }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            return "    " + padded.joined(separator: "  ")
        }
        return [line(header)] + rows.map(line)
    }
}
