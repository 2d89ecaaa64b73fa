import FeatureQuerySupport
import FeatureService
import FeatureQuerySupport

/// Writing OGC feature ids and catalog entries: the items of a layer entry that are not ArcGIS object ids.
extension JSONWriter {
    /// A feature id as the server gave it: a JSON integer or string; `null` for a feature without one.
    mutating func featureId(_ id: FeatureID?) {
        switch id {
        case .integer(let value)?: integer(value)
        case .string(let value)?: string(value)
        case nil: raw("null")
        }
    }

    /// The bytes ``featureId(_:)`` writes.
    static func size(of id: FeatureID?) -> Int {
        switch id {
        case .integer(let value)?: return digitCount(value)
        case nil: return 4
        case .string?:
            var writer = JSONWriter(capacity: 32)
            writer.featureId(id)
            return writer.bytes.count
        }
    }

    /// One catalog entry: the fields a person chooses a collection or layer by, absent ones left out.
    mutating func catalogEntry(_ entry: CatalogEntry) {
        raw("{")
        key("id")
        string(entry.id)
        optional("title", entry.title)
        optional("description", entry.description)
        optional("url", entry.url)
        if let extent = entry.extent {
            comma()
            key("extent")
            raw("[")
            for (index, value) in extent.enumerated() {
                if index > 0 { comma() }
                self.value(.number(value))
            }
            raw("]")
        }
        if let interval = entry.temporalExtent {
            comma()
            key("temporalExtent")
            raw("[")
            for (index, bound) in interval.enumerated() {
                if index > 0 { comma() }
                if let bound { string(bound) } else { raw("null") }
            }
            raw("]")
        }
        optional("itemType", entry.itemType)
        if !entry.crs.isEmpty { strings("crs", entry.crs) }
        optional("storageCrs", entry.storageCrs)
        if entry.itemType != nil || !entry.filterLanguages.isEmpty { strings("filterLanguages", entry.filterLanguages) }
        if let queryables = entry.queryables { strings("queryables", queryables) }
        optional("geometryType", entry.geometryType)
        if let queryable = entry.isQueryable {
            comma()
            key("queryable")
            bool(queryable)
        }
        if let pagination = entry.supportsPagination {
            comma()
            key("supportsPagination")
            bool(pagination)
        }
        if !entry.relationships.isEmpty {
            comma()
            key("relationships")
            raw("[")
            for (index, relationship) in entry.relationships.enumerated() {
                if index > 0 { comma() }
                self.relationship(relationship)
            }
            raw("]")
        }
        if let attachments = entry.hasAttachments {
            comma()
            key("hasAttachments")
            bool(attachments)
        }
        raw("}")
    }

    /// `{"id", "name", "relatedTableId", "cardinality", "role", "keyField"}`: what `result: related` can follow
    /// from a layer (`keyField` only when the layer names it).
    private mutating func relationship(_ relationship: LayerRelationship) {
        raw("{")
        key("id")
        integer(relationship.id)
        comma()
        key("name")
        string(relationship.name)
        comma()
        key("relatedTableId")
        integer(relationship.relatedTableId)
        comma()
        key("cardinality")
        string(relationship.cardinality)
        comma()
        key("role")
        string(relationship.role)
        optional("keyField", relationship.keyField)
        raw("}")
    }

    /// The bytes ``catalogEntry(_:)`` writes.
    static func size(of entry: CatalogEntry) -> Int {
        var writer = JSONWriter(capacity: 256)
        writer.catalogEntry(entry)
        return writer.bytes.count
    }

    private mutating func optional(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        comma()
        key(name)
        string(text)
    }

    private mutating func strings(_ name: StaticString, _ items: [String]) {
        comma()
        key(name)
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { comma() }
            string(item)
        }
        raw("]")
    }
}
