import FeatureQuerySupport
import FeatureService
import FeatureGeometry

extension ArcGISResponse {
    /// A service's layer list (`FeatureServer?f=json`, `MapServer?f=json`): `layers` and `tables` (marked
    /// ``ServiceMetadata/LayerEntry/isTable``), each with `id`, `name`, `parentLayerId` (-1 or absent → nil)
    /// and `subLayerIds` (null or absent → []), plus the service's `maxRecordCount` and `capabilities`.
    ///
    /// A body with neither `layers` nor `tables` is `.malformedResponse` (it is not a FeatureServer or
    /// MapServer: an ImageServer, a folder listing, a layer URL given as a service); so is an entry without an
    /// integer `id`.
    static func serviceMetadata(_ body: [UInt8], url: String) throws(FeatureServiceError) -> ServiceMetadata {
        let context = ResponseContext(layer: url)
        let members = try context.document(body, limits: .default, expecting: "service metadata")
        guard members["layers"] != nil || members["tables"] != nil else {
            let hint = members["fields"] != nil ? " (it has fields: this looks like a layer URL, not a service)" : ""
            throw context.malformed(
                "has no \"layers\" or \"tables\", so it is not the metadata of a FeatureServer or MapServer\(hint)")
        }
        var entries = try layerEntries(members["layers"], list: "layers", isTable: false, context: context)
        entries += try layerEntries(members["tables"], list: "tables", isTable: true, context: context)
        var maxRecordCount = members["maxRecordCount"]?.integerValue
        if let count = maxRecordCount, count <= 0 { maxRecordCount = nil }
        return ServiceMetadata(
            url: context.layer, layers: entries, maxRecordCount: maxRecordCount,
            capabilities: members["capabilities"]?.stringValue.map { commaSeparated($0) } ?? [])
    }

    private static func layerEntries(
        _ value: ParsedJSON?, list: String, isTable: Bool, context: ResponseContext
    ) throws(FeatureServiceError) -> [ServiceMetadata.LayerEntry] {
        let items: [ParsedJSON]
        switch value {
        case nil, .null?: return []
        case .array(let array)?: items = array
        case let other?: throw context.malformed("has \"\(list)\" that are \(other.shapeDescription), not an array")
        }
        var entries: [ServiceMetadata.LayerEntry] = []
        entries.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            guard case .object(let entry) = item else {
                throw context.malformed("has an entry of \"\(list)\" (number \(position + 1)) that is \(item.shapeDescription), not an object")
            }
            guard let id = entry["id"]?.integerValue else {
                throw context.malformed("has an entry of \"\(list)\" (number \(position + 1)) without an integer id")
            }
            let parent = entry["parentLayerId"]?.integerValue.flatMap { $0 < 0 ? nil : $0 }
            let subLayerIds: [Int]
            switch entry["subLayerIds"] {
            case nil, .null?:
                subLayerIds = []
            case .array(let ids)?:
                var collected: [Int] = []
                for value in ids {
                    guard let subLayerId = value.integerValue else {
                        throw context.malformed("lists a sublayer id of layer \(id) that is \(value.shapeDescription), not an integer")
                    }
                    collected.append(subLayerId)
                }
                subLayerIds = collected
            case let other?:
                throw context.malformed("gives layer \(id) subLayerIds that are \(other.shapeDescription), not an array")
            }
            let entryIsTable = isTable || entry["type"]?.stringValue?.lowercased() == "table"
            entries.append(ServiceMetadata.LayerEntry(
                id: id, name: entry["name"]?.stringValue ?? "", parentLayerId: parent, subLayerIds: subLayerIds,
                isTable: entryIsTable, type: entry["type"]?.stringValue))
        }
        return entries
    }
}
