import FeatureGeometry
import QueryLanguage
import FeatureQuerySupport

/// A layer as the server publishes it: its metadata, its features, and JSON fragments written once
/// (field descriptions, spatial references) that every response reuses.
struct PublishedLayer: Sendable {
    let definition: LayerDefinition
    let source: FeatureSource
    /// `{"name":..,"type":..,"alias":..[,"length":..]}` per field.
    let fieldJSON: [[UInt8]]
    /// The layer's fields as quoted names, for attribute keys: `"APN":`.
    let attributeKeys: [[UInt8]]
    /// The feature-table query capabilities and quirks the layer is served with.
    let options: LayerQueryOptions

    init(definition: LayerDefinition, source: FeatureSource, options: LayerQueryOptions = LayerQueryOptions()) {
        self.definition = definition
        self.source = source
        self.options = options
        fieldJSON = definition.fields.map { field in
            var json = JSONWriter(capacity: 96)
            json.raw("{\"name\":")
            json.string(field.name)
            json.raw(",\"type\":")
            json.string(field.type.esriName)
            json.raw(",\"alias\":")
            json.string(field.alias)
            if let length = field.length {
                json.raw(",\"length\":")
                json.integer(length)
            }
            json.raw("}")
            return json.bytes
        }
        attributeKeys = definition.fields.map { field in
            var json = JSONWriter(capacity: 24)
            json.key(escaping: field.name)
            return json.bytes
        }
    }

    var layer: SampleLayer { definition.layer }
}

extension JSONWriter {
    /// `{"wkid":102100,"latestWkid":3857}`.
    mutating func spatialReference(_ reference: SpatialReference) {
        raw("{\"wkid\":")
        integer(reference.wkid)
        if let latest = reference.latestWkid {
            raw(",\"latestWkid\":")
            integer(latest)
        }
        raw("}")
    }

    /// An Esri envelope with its spatial reference.
    mutating func envelope(_ envelope: Envelope, _ reference: SpatialReference) {
        raw("{\"xmin\":")
        double(envelope.xmin)
        raw(",\"ymin\":")
        double(envelope.ymin)
        raw(",\"xmax\":")
        double(envelope.xmax)
        raw(",\"ymax\":")
        double(envelope.ymax)
        raw(",\"spatialReference\":")
        spatialReference(reference)
        raw("}")
    }
}

/// The related-records and attachments capabilities in effect: the options' overrides, or the service's
/// defaults (11.2 FeatureServer: related paging and ordering; 11.1 MapServer: neither).
extension PublishedLayer {
    var supportsQueryRelatedPagination: Bool { options.supportsQueryRelatedPagination ?? (layer.service == .laCountyParcels) }
    var supportsAdvancedQueryRelated: Bool { options.supportsAdvancedQueryRelated ?? (layer.service == .laCountyParcels) }
    var supportsQueryAttachments: Bool { definition.hasAttachments && (options.supportsQueryAttachments ?? true) }
}
