/// The items parameters beyond Part 1–3: `sortby` (Part 8 draft; pygeoapi's syntax `+f,-g`, unknown
/// properties a 400 "bad sort property"), `properties` and `skipGeometry` (the property-selection draft, as
/// pygeoapi reads them) and `ids` (a comma-separated id list, as several servers offer).
extension OGCItemsQuery {
    mutating func readSelection(_ parameters: RequestParameters, collection: OGCCollection, quirks: OGCQuirks) throws(OGCError) {
        if let text = parameters["sortby"], quirks.honoursSortby {
            var keys: [SortOrder.Key] = []
            for item in text.split(separator: ",") {
                // A '+' sent unencoded arrives as a space: both mean ascending.
                var name = item.trimmingSpaces()
                var descending = false
                if name.first == "+" || name.first == "-" {
                    descending = name.first == "-"
                    name = name.dropFirst().trimmingSpaces()
                }
                guard !name.isEmpty, let field = collection.fieldIndex(String(name)) else {
                    throw .invalidParameter("bad sort property '\(name.prefix(60))' in 'sortby': not a sortable of '\(collection.id)'")
                }
                keys.append(SortOrder.Key(field: field, descending: descending))
            }
            if !keys.isEmpty { order = SortOrder(keys: keys) }
        }
        if let text = parameters["properties"] {
            var fields: [Int] = []
            for item in text.split(separator: ",") {
                let name = item.trimmingSpaces()
                guard let field = collection.fieldIndex(String(name)) else {
                    throw .invalidParameter("unknown property '\(name.prefix(60))' in 'properties' of '\(collection.id)'")
                }
                if !fields.contains(field) { fields.append(field) }
            }
            properties = fields
        }
        if let text = parameters["skipGeometry"] {
            switch text.lowercased().trimmingSpaces() {
            case "true", "1", "yes": skipGeometry = true
            case "false", "0", "no": skipGeometry = false
            default: throw .invalidParameter("'skipGeometry' must be true or false; found '\(text.prefix(20))'")
            }
        }
        if let text = parameters["ids"] {
            var list: [Int] = []
            for item in text.split(separator: ",") {
                guard let id = Int(item.trimmingSpaces()) else {
                    throw .invalidParameter("'ids' must be comma-separated feature ids; found '\(item.prefix(40))'")
                }
                list.append(id)
            }
            ids = list
        }
    }
}

extension SortOrder {
    /// An order from keys already checked against the fields (OGC `sortby`).
    init(keys: [Key]) { self.keys = keys }
}
