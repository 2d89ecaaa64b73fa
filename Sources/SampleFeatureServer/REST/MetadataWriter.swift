import FeatureGeometry
import FeatureQuerySupport

/// Writes the services directory, service metadata and layer metadata as ArcGIS publishes them.
enum MetadataWriter {
    static let directoryVersion = "11.1"

    /// `/arcgis/rest/services?f=json`.
    /// The services directory (or a folder's, with `prefix` = `Folder/` before each service name).
    static func directory(folders: [String] = [], prefix: String = "") -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.raw("{\"currentVersion\":")
        json.rawText(directoryVersion)
        json.raw(",\"folders\":[")
        for (position, folder) in folders.enumerated() {
            if position > 0 { json.raw(",") }
            json.string(folder)
        }
        json.raw("],\"services\":[")
        for (position, service) in SampleService.allCases.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"name\":")
            json.string(prefix + service.name)
            json.raw(",\"type\":")
            json.string(service.type)
            json.raw("}")
        }
        json.raw("]}")
        return json.bytes
    }

    /// `/arcgis/rest/info?f=json`: where clients learn whether the server wants tokens.
    static func info(tokenBased: Bool, tokenURL: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.raw("{\"currentVersion\":")
        json.rawText(directoryVersion)
        json.raw(",\"fullVersion\":\"11.1.0\",\"owningSystemUrl\":null,\"authInfo\":{\"isTokenBasedSecurity\":")
        json.bool(tokenBased)
        if tokenBased {
            json.raw(",\"tokenServicesUrl\":")
            json.string(tokenURL)
            json.raw(",\"shortLivedTokenValidity\":60")
        }
        json.raw("}}")
        return json.bytes
    }

    /// `/arcgis/rest/info?f=json` of a secured server: the token service, and the owning portal when federated.
    static func info(_ auth: SecurityAuthInfo) -> [UInt8] {
        var json = JSONWriter(capacity: 320)
        json.raw("{\"currentVersion\":")
        json.rawText(directoryVersion)
        json.raw(",\"fullVersion\":\"11.1.0\",\"owningSystemUrl\":")
        if let owner = auth.owningSystemURL { json.string(owner) } else { json.raw("null") }
        json.raw(",\"authInfo\":{\"isTokenBasedSecurity\":true,\"tokenServicesUrl\":")
        json.string(auth.tokenServicesURL)
        json.raw(",\"shortLivedTokenValidity\":")
        json.integer(auth.validityMinutes)
        json.raw("}}")
        return json.bytes
    }

    /// `{Service}/FeatureServer?f=json` and `{Service}/MapServer?f=json`.
    /// `layers` holds the service's tables too: they are listed apart, under `tables`.
    static func service(_ service: SampleService, layers members: [PublishedLayer]) -> [UInt8] {
        let layers = members.filter { !$0.definition.isTable }
        let version = LayerCatalog.version(service)
        let reference = layers.first?.definition.spatialReference ?? .wgs84
        var extent = layers.first?.definition.extent ?? Envelope(xmin: 0, ymin: 0, xmax: 0, ymax: 0)
        for layer in layers.dropFirst() { extent = extent.union(layer.definition.extent) }
        let maxRecordCount = layers.map(\.definition.maxRecordCount).max() ?? 1000
        let isFeatureServer = service.type == "FeatureServer"
        var json = JSONWriter(capacity: 1024)
        json.raw("{\"currentVersion\":")
        json.rawText(version)
        json.raw(",\"serviceDescription\":")
        json.string("Generated sample data: \(service.name)")
        if !isFeatureServer { json.raw(",\"mapName\":\"Layers\"") }
        json.raw(",\"description\":\"\",\"copyrightText\":\"\",\"hasVersionedData\":false,\"supportsDynamicLayers\":false")
        json.raw(",\"layers\":[")
        for (position, layer) in layers.enumerated() {
            let definition = layer.definition
            if position > 0 { json.raw(",") }
            json.raw("{\"id\":")
            json.integer(definition.layer.layerID)
            json.raw(",\"name\":")
            json.string(definition.name)
            json.raw(",\"parentLayerId\":-1,\"defaultVisibility\":true,\"subLayerIds\":null,\"minScale\":0,\"maxScale\":0")
            if let type = definition.geometryType {
                json.raw(",\"type\":\"Feature Layer\",\"geometryType\":")
                json.string(type.esriName)
            } else {
                json.raw(",\"type\":")
                json.string(definition.type)
            }
            json.raw("}")
        }
        json.raw("],\"tables\":[")
        for (position, table) in members.filter(\.definition.isTable).enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"id\":")
            json.integer(table.layer.layerID)
            json.raw(",\"name\":")
            json.string(table.definition.name)
            json.raw("}")
        }
        json.raw("],\"spatialReference\":")
        json.spatialReference(reference)
        json.raw(",\"initialExtent\":")
        json.envelope(extent, reference)
        json.raw(",\"fullExtent\":")
        json.envelope(extent, reference)
        json.raw(",\"units\":")
        json.string(reference.isWGS84 ? "esriDecimalDegrees" : "esriMeters")
        json.raw(",\"capabilities\":")
        json.string(isFeatureServer ? "Query" : "Map,Query,Data")
        json.raw(",\"supportedQueryFormats\":")
        json.string(service == .laCountyParcelsLegacy ? "JSON, AMF" : "JSON, geoJSON")
        json.raw(",\"maxRecordCount\":")
        json.integer(maxRecordCount)
        if isFeatureServer {
            json.raw(",\"allowGeometryUpdates\":false,\"supportsDisconnectedEditing\":false,\"syncEnabled\":false")
        } else {
            json.raw(",\"singleFusedMapCache\":false,\"maxImageHeight\":4096,\"maxImageWidth\":4096")
        }
        json.raw("}")
        return json.bytes
    }

    /// `{Service}/FeatureServer/layers?f=json`.
    static func layers(_ layers: [PublishedLayer]) -> [UInt8] {
        var json = JSONWriter(capacity: 4096)
        json.raw("{\"layers\":[")
        for (position, layer) in layers.filter({ !$0.definition.isTable }).enumerated() {
            if position > 0 { json.raw(",") }
            json.raw(self.layer(layer))
        }
        json.raw("],\"tables\":[")
        for (position, table) in layers.filter(\.definition.isTable).enumerated() {
            if position > 0 { json.raw(",") }
            json.raw(self.layer(table))
        }
        json.raw("]}")
        return json.bytes
    }

    /// `{layer}?f=json`.
    static func layer(_ layer: PublishedLayer) -> [UInt8] {
        let definition = layer.definition
        let isLegacy = !definition.supportsAdvancedQueries
        var json = JSONWriter(capacity: 2048)
        json.raw("{\"currentVersion\":")
        json.rawText(definition.currentVersion)
        json.raw(",\"id\":")
        json.integer(definition.layer.layerID)
        json.raw(",\"name\":")
        json.string(definition.name)
        json.raw(",\"type\":")
        json.string(definition.type)
        json.raw(",\"description\":")
        json.string(definition.description)
        json.raw(",\"copyrightText\":\"\",\"parentLayer\":null,\"subLayers\":[],\"defaultVisibility\":true")
        if let type = definition.geometryType {
            json.raw(",\"geometryType\":")
            json.string(type.esriName)
        }
        json.raw(",\"minScale\":0,\"maxScale\":0")
        if !definition.isTable {
            json.raw(",\"extent\":")
            json.envelope(definition.extent, definition.spatialReference)
        }
        json.raw(",\"hasAttachments\":")
        json.bool(definition.hasAttachments)
        json.raw(",\"htmlPopupType\":\"esriServerHTMLPopupTypeNone\",\"displayField\":")
        json.string(definition.displayField)
        json.raw(",\"typeIdField\":null")
        if definition.fields.isEmpty {
            json.raw(",\"fields\":null")
        } else {
            json.raw(",\"objectIdField\":")
            json.string(definition.objectIdField)
            if !isLegacy {
                json.raw(",\"uniqueIdField\":{\"name\":")
                json.string(definition.objectIdField)
                json.raw(",\"isSystemMaintained\":true},\"globalIdField\":\"\"")
            }
            json.raw(",\"fields\":[")
            for (position, field) in layer.fieldJSON.enumerated() {
                if position > 0 { json.raw(",") }
                json.raw(field)
            }
            json.raw("]")
        }
        json.raw(",\"relationships\":")
        relationships(&json, definition.layer)
        json.raw(",\"capabilities\":")
        json.string(definition.capabilities)
        json.raw(",\"maxRecordCount\":")
        json.integer(definition.maxRecordCount)
        json.raw(",\"supportedQueryFormats\":")
        json.string(definition.supportedQueryFormats)
        json.raw(",\"hasZ\":false,\"hasM\":false")
        if !isLegacy {
            advancedCapabilities(&json, layer)
        } else if definition.type == "Raster Layer" {
            json.raw(",\"supportsStatistics\":false,\"supportsAdvancedQueries\":false")
        }
        if !definition.isTable {
            json.raw(",\"spatialReference\":")
            json.spatialReference(definition.spatialReference)
        }
        json.raw("}")
        return json.bytes
    }

    /// `[{"id":4,"name":"Parcel_Assessments","relatedTableId":2,"cardinality":..,"role":..,"keyField":"APN","composite":false}]`.
    static func relationships(_ json: inout JSONWriter, _ layer: SampleLayer) {
        json.raw("[")
        for (position, relationship) in SampleRelationship.of(layer).enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"id\":")
            json.integer(relationship.id)
            json.raw(",\"name\":")
            json.string(relationship.name)
            json.raw(",\"relatedTableId\":")
            json.integer(relationship.related(from: layer).layerID)
            json.raw(",\"cardinality\":")
            json.string(relationship.cardinality)
            json.raw(",\"role\":")
            json.string(relationship.role(of: layer))
            json.raw(",\"keyField\":")
            json.string(relationship.keyField(of: layer))
            json.raw(",\"composite\":false}")
        }
        json.raw("]")
    }
}
