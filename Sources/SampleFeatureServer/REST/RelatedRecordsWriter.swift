import FeatureGeometry
import FeatureQuerySupport

/// Writes `queryRelatedRecords` answers:
/// `{"fields":[..],["geometryType":..,"spatialReference":..,"hasZ":false,"hasM":false,]"relatedRecordGroups":
/// [{"objectId":O,"relatedRecords":[{"attributes":{..}[,"geometry":{..}]}]}],"exceededTransferLimit":false}`,
/// or `{"relatedRecordGroups":[{"objectId":O,"count":n}]}` with returnCountOnly. A group cut by the page
/// holds only the page's rows; groups with none on the page are left out.
enum RelatedRecordsWriter {
    static func records(
        _ request: RelatedQueryParameters, related: PublishedLayer, _ selection: RelatedSelection, _ page: RelatedPage
    ) -> [UInt8] {
        let definition = related.definition
        let withGeometry = request.returnGeometry && definition.geometryType != nil
        var json = JSONWriter(capacity: 256 + page.range.count * (withGeometry ? 600 : 160))
        json.raw("{\"fields\":[")
        for (position, field) in request.outFields.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw(related.fieldJSON[field])
        }
        json.raw("]")
        if let type = definition.geometryType {
            json.raw(",\"geometryType\":")
            json.string(type.esriName)
            json.raw(",\"spatialReference\":")
            json.spatialReference(request.outSR)
            json.raw(",\"hasZ\":false,\"hasM\":false")
        }
        json.raw(",\"relatedRecordGroups\":[")
        let transform = CoordinateTransform(from: definition.spatialReference, to: request.outSR)
        var firstGroup = true
        for group in selection.groups {
            let rows = group.start..<(group.start + group.rows.count)
            let shown = rows.clamped(to: page.range)
            guard !shown.isEmpty else { continue }
            if !firstGroup { json.raw(",") }
            firstGroup = false
            json.raw("{\"objectId\":")
            json.integer(group.objectID)
            json.raw(",\"relatedRecords\":[")
            for position in shown {
                let index = Int(group.rows[position - group.start])
                if position > shown.lowerBound { json.raw(",") }
                json.raw("{\"attributes\":{")
                for (fieldPosition, field) in request.outFields.enumerated() {
                    if fieldPosition > 0 { json.raw(",") }
                    json.raw(related.attributeKeys[field])
                    related.source.writeValue(field, index, to: &json)
                }
                json.raw("}")
                if withGeometry {
                    json.raw(",\"geometry\":")
                    json.esriGeometry(related.source, index, transform)
                }
                json.raw("}")
            }
            json.raw("]}")
        }
        json.raw("],\"exceededTransferLimit\":")
        json.bool(page.exceededTransferLimit)
        json.raw("}")
        return json.bytes
    }

    /// `{"relatedRecordGroups":[{"objectId":O,"count":n}]}`: every group, no transfer limit.
    static func counts(_ selection: RelatedSelection) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + selection.groups.count * 32)
        json.raw("{\"relatedRecordGroups\":[")
        for (position, group) in selection.groups.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"objectId\":")
            json.integer(group.objectID)
            json.raw(",\"count\":")
            json.integer(group.rows.count)
            json.raw("}")
        }
        json.raw("]}")
        return json.bytes
    }
}
