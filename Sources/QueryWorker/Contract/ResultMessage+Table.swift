import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// The layer fields of feature-table results (contract 1.2): who ordered, who aggregated (or joined the related
/// records, or listed the attachments), the extent and the related table. They are header fields, written in
/// every part of a split layer; statistics and distinct rows, related records and attachments are items.
extension ResultMessage {
    /// `orderedBy`, `statisticsBy`, `distinctBy`, `relatedBy` or `attachmentsBy`, `extent` and `relatedTable`,
    /// each only where the selection has it.
    func writeTableFields(_ answer: ServiceLayerResult, to writer: inout JSONWriter) {
        if let site = answer.orderedBy {
            writer.comma()
            writer.key("orderedBy")
            writer.string(site.rawValue)
        }
        switch answer.selection {
        case .statistics:
            if let site = answer.aggregatedBy {
                writer.comma()
                writer.key("statisticsBy")
                writer.string(site.rawValue)
            }
        case .distinct:
            if let site = answer.aggregatedBy {
                writer.comma()
                writer.key("distinctBy")
                writer.string(site.rawValue)
            }
        case .extent(let envelope):
            writer.comma()
            writer.key("extent")
            if let envelope { writer.envelope(envelope) } else { writer.raw("null") }
        case .related(let related):
            writer.comma()
            writer.key("relatedTable")
            writer.string(related.relatedTable)
            if let site = answer.aggregatedBy {
                writer.comma()
                writer.key("relatedBy")
                writer.string(site.rawValue)
            }
        case .attachments:
            if let site = answer.aggregatedBy {
                writer.comma()
                writer.key("attachmentsBy")
                writer.string(site.rawValue)
            }
        case .countOnly, .objectIds, .featureIds, .features, .catalog, .stored:
            break
        }
    }
}

/// Writing the values of statistics and distinct rows.
extension JSONWriter {
    /// An attribute value as JSON: a date as its epoch milliseconds (an integer, as ArcGIS sends dates),
    /// a double as a number (`null` when it is not finite: JSON has no NaN).
    mutating func attributeValue(_ value: AttributeValue) {
        switch value {
        case .null: raw("null")
        case .integer(let number): integer(number)
        case .double(let number): self.number(number)
        case .string(let text): string(text)
        case .date(let milliseconds): integer(milliseconds)
        }
    }

    /// `{"name": value, …}` in the list's order (the order the request named the fields in).
    mutating func namedValues(_ values: [NamedValue]) {
        raw("{")
        for (index, entry) in values.enumerated() {
            if index > 0 { comma() }
            key(escaping: entry.name)
            attributeValue(entry.value)
        }
        raw("}")
    }

    /// `{"group": {…}, "values": {…}}`: one row of a statistics answer.
    mutating func statisticsRow(_ row: StatisticsRow) {
        raw("{")
        key("group")
        namedValues(row.group)
        comma()
        key("values")
        namedValues(row.values)
        raw("}")
    }

    /// `{"xmin", "ymin", "xmax", "ymax", "spatialReference"}`; the spatial reference only when known.
    mutating func envelope(_ envelope: Envelope) {
        raw("{")
        key("xmin")
        number(envelope.xmin)
        comma()
        key("ymin")
        number(envelope.ymin)
        comma()
        key("xmax")
        number(envelope.xmax)
        comma()
        key("ymax")
        number(envelope.ymax)
        if let reference = envelope.spatialReference {
            comma()
            key("spatialReference")
            raw("{")
            key("wkid")
            integer(reference.wkid)
            if let latest = reference.latestWkid {
                comma()
                key("latestWkid")
                integer(latest)
            }
            raw("}")
        }
        raw("}")
    }

    /// The bytes ``statisticsRow(_:)`` writes: a part is planned with exact sizes.
    static func size(of row: StatisticsRow) -> Int {
        var writer = JSONWriter(capacity: 64)
        writer.statisticsRow(row)
        return writer.bytes.count
    }

    /// The bytes ``namedValues(_:)`` writes for one distinct row.
    static func size(of row: [NamedValue]) -> Int {
        var writer = JSONWriter(capacity: 64)
        writer.namedValues(row)
        return writer.bytes.count
    }
}
