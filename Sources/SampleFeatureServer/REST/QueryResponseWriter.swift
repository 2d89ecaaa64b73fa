import FeatureGeometry
import QueryLanguage
import FeatureQuerySupport

/// Writes `f=json` query responses: features, ids, counts, extents and statistics.
enum QueryResponseWriter {
    static func features(_ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32], _ page: QueryPage) -> [UInt8] {
        let definition = layer.definition
        let source = layer.source
        let withGeometry = request.returnGeometry && definition.geometryType != nil
        var json = JSONWriter(capacity: 512 + page.range.count * (withGeometry ? 420 : 240))
        header(&json, layer, request.outFields, withGeometry: withGeometry, outSR: request.outSR)
        json.raw(",\"features\":[")
        let transform = CoordinateTransform(from: definition.spatialReference, to: request.outSR)
        let keys = ByteTable(request.outFields.map { layer.attributeKeys[$0] })
        if case .parcels(let store, _) = source {
            store.writeFeatures(selection, page.range, fields: request.outFields, keys: keys, geometry: withGeometry,
                                transform: transform, to: &json)
        } else {
            for position in page.range {
                let index = Int(selection[position])
                if position > page.range.lowerBound { json.byte(UInt8(ascii: ",")) }
                json.raw("{\"attributes\":{")
                for (fieldPosition, field) in request.outFields.enumerated() {
                    if fieldPosition > 0 { json.byte(UInt8(ascii: ",")) }
                    keys.write(fieldPosition, to: &json)
                    source.writeValue(field, index, to: &json)
                }
                json.byte(UInt8(ascii: "}"))
                if withGeometry {
                    json.raw(",\"geometry\":")
                    json.esriGeometry(source, index, transform)
                }
                json.byte(UInt8(ascii: "}"))
            }
        }
        json.raw("]")
        if page.reportLimit {
            json.raw(",\"exceededTransferLimit\":")
            json.bool(page.exceededTransferLimit)
        }
        json.raw("}")
        return json.bytes
    }

    /// The members before `features`: id field (FeatureServer) or display field and aliases (MapServer),
    /// geometry type, spatial reference and fields.
    static func header(
        _ json: inout JSONWriter, _ layer: PublishedLayer, _ fields: [Int], withGeometry: Bool, outSR: SpatialReference
    ) {
        let definition = layer.definition
        if definition.layer.service.type == "FeatureServer" {
            json.raw("{\"objectIdFieldName\":")
            json.string(definition.objectIdField)
            json.raw(",\"uniqueIdField\":{\"name\":")
            json.string(definition.objectIdField)
            json.raw(",\"isSystemMaintained\":true},\"globalIdFieldName\":\"\"")
        } else {
            json.raw("{\"displayFieldName\":")
            json.string(definition.displayField)
            json.raw(",\"fieldAliases\":{")
            for (position, field) in fields.enumerated() {
                if position > 0 { json.raw(",") }
                json.raw(layer.attributeKeys[field])
                json.string(definition.fields[field].alias)
            }
            json.raw("}")
        }
        if withGeometry, let type = definition.geometryType {
            json.raw(",\"geometryType\":")
            json.string(type.esriName)
            json.raw(",\"spatialReference\":")
            json.spatialReference(outSR)
        }
        json.raw(",\"fields\":[")
        for (position, field) in fields.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw(layer.fieldJSON[field])
        }
        json.raw("]")
    }

    /// `{"objectIdFieldName":"OBJECTID","objectIds":[...]}`, never capped. An empty selection is `null` on
    /// Enterprise-style (MapServer) layers and `[]` on the hosted-style FeatureServer, as real servers differ.
    static func objectIDs(_ layer: PublishedLayer, _ selection: [Int32]) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + selection.count * 9)
        json.raw("{\"objectIdFieldName\":")
        json.string(layer.definition.objectIdField)
        json.raw(",\"objectIds\":")
        if selection.isEmpty, layer.definition.emptyIdsAsNull {
            json.raw("null}")
            return json.bytes
        }
        json.raw("[")
        for (position, index) in selection.enumerated() {
            if position > 0 { json.raw(",") }
            json.integer(Int(index) + 1)
        }
        json.raw("]}")
        return json.bytes
    }

    /// `{"count":N}`, with the extent too when returnExtentOnly is also set.
    static func count(_ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32]) -> [UInt8] {
        var json = JSONWriter(capacity: 160)
        json.raw("{\"count\":")
        json.integer(selection.count)
        if request.returnExtentOnly {
            json.raw(",\"extent\":")
            extent(&json, request, layer, selection)
        }
        json.raw("}")
        return json.bytes
    }

    static func extent(_ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32]) -> [UInt8] {
        var json = JSONWriter(capacity: 160)
        json.raw("{\"extent\":")
        extent(&json, request, layer, selection)
        json.raw("}")
        return json.bytes
    }

    private static func extent(_ json: inout JSONWriter, _ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32]) {
        var box: Envelope?
        for index in selection {
            guard let extent = layer.source.extent(Int(index)) else { continue }
            box = box.map { $0.union(extent) } ?? extent
        }
        guard var box else {
            json.raw("{\"xmin\":\"NaN\",\"ymin\":\"NaN\",\"xmax\":\"NaN\",\"ymax\":\"NaN\",\"spatialReference\":")
            json.spatialReference(request.outSR)
            json.raw("}")
            return
        }
        box.spatialReference = layer.definition.spatialReference
        let projected = (try? box.projected(to: request.outSR)) ?? box
        json.envelope(projected, request.outSR)
    }
}
