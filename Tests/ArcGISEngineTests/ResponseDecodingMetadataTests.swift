import FeatureGeometry
import QueryLanguage
import Testing
import FeatureService

@testable import ArcGISEngine

@Suite("Layer and service metadata")
struct ResponseDecodingMetadataTests {
    @Test("a FeatureServer layer")
    func featureServerLayer() throws {
        let metadata = try ArcGISResponse.layerMetadata(bodyBytes(DecodingFixture.featureServerLayer), url: DecodingFixture.layerURLWithToken + "/")
        #expect(metadata.url == DecodingFixture.layerURL)
        #expect(metadata.id == 0)
        #expect(metadata.name == "Parcels")
        #expect(metadata.type == "Feature Layer")
        #expect(metadata.geometryType == "esriGeometryPolygon")
        #expect(metadata.objectIdField == "OBJECTID")
        #expect(metadata.fields.map(\.name) == ["OBJECTID", "APN", "UseCode", "Roll_LandValue", "Shape__Area", "LastSale"])
        #expect(metadata.fields[1] == LayerField(name: "APN", type: .string, alias: "Assessor Parcel Number"))
        #expect(metadata.fields[5].type == .date)
        // Geometry and blob fields stay out of the usable fields but are known to the schema, with their types.
        #expect(metadata.schema.unusableFields == ["Shape": "esriFieldTypeGeometry", "Sketch": "esriFieldTypeBlob"])
        #expect(metadata.schema.field(named: "apn")?.name == "APN")
        #expect(metadata.maxRecordCount == 2000)
        #expect(metadata.capabilities == ["Query", "Extract", "Sync"])
        #expect(metadata.supportsQuery)
        #expect(metadata.supportsPagination)
        #expect(metadata.supportedQueryFormats == ["json", "geojson", "pbf"])
        #expect(metadata.supportsStatistics)
        #expect(metadata.useStandardizedQueries)
        #expect(metadata.spatialReference == .webMercator)
        #expect(metadata.spatialReference?.wkid == 102100)
    }

    @Test("a MapServer sublayer of an older server: defaults, lower-case OID, WKT-only extent")
    func mapServerSublayer() throws {
        let url = "https://maps.example.com/arcgis/rest/services/USA/MapServer/2"
        let metadata = try ArcGISResponse.layerMetadata(bodyBytes(DecodingFixture.mapServerSublayer), url: url)
        #expect(metadata.url == url)
        #expect(metadata.id == 2)
        #expect(metadata.objectIdField == "objectid")  // from the field of type esriFieldTypeOID
        #expect(metadata.maxRecordCount == 1000)
        #expect(!metadata.supportsPagination)
        #expect(!metadata.supportsStatistics)
        #expect(!metadata.useStandardizedQueries)
        #expect(metadata.capabilities == ["Map", "Query", "Data"])
        #expect(metadata.supportedQueryFormats == ["json", "amf"])
        // The extent names only WKT, so the source spatial reference is used.
        #expect(metadata.spatialReference == SpatialReference(wkid: 4269))
        #expect(metadata.fields.map(\.type) == [.objectID, .string, .integer])
    }

    @Test("a table has no geometry and may name its OID only by type")
    func table() throws {
        let metadata = try ArcGISResponse.layerMetadata(bodyBytes(DecodingFixture.table), url: DecodingFixture.layerURL)
        #expect(metadata.type == "Table")
        #expect(metadata.geometryType == nil)
        #expect(metadata.objectIdField == "FID")
        #expect(metadata.spatialReference == nil)
        #expect(metadata.schema.unusableFields == ["Notes": "esriFieldTypeXML"])
        // A table that claims a geometry type still has none.
        let claims = try ArcGISResponse.layerMetadata(
            bodyBytes(#"{"type":"Table","geometryType":"esriGeometryPoint","objectIdField":"ID","fields":[]}"#), url: DecodingFixture.layerURL)
        #expect(claims.geometryType == nil)
        #expect(claims.fields.isEmpty)
    }

    @Test("a group layer is unsupported and names its sublayers")
    func groupLayer() {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(bodyBytes(DecodingFixture.groupLayer), url: "https://maps.example.com/arcgis/rest/services/USA/MapServer/0")
        }
        #expect(error.code == .unsupportedLayer)
        #expect(!error.isRetryable)
        #expect(error.message.contains("Group Layer"))
        #expect(error.message.contains("1, 2"))
        #expect(error.details == ["subLayerIds: 1, 2"])
        let raster = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(bodyBytes(#"{"id":4,"name":"Elevation","type":"Raster Layer"}"#), url: DecodingFixture.layerURL)
        }
        #expect(raster.code == .unsupportedLayer)
    }

    @Test("optional settings of unexpected types fall back to defaults")
    func lenientOptionals() throws {
        let metadata = try ArcGISResponse.layerMetadata(bodyBytes("""
            {"name":7,"objectIdField":"OID","fields":[{"name":"OID","type":"esriFieldTypeOID","alias":null}],
             "maxRecordCount":0,"capabilities":null,"supportsStatistics":"yes","supportedQueryFormats":"",
             "advancedQueryCapabilities":null,"extent":null,"sourceSpatialReference":{"wkid":2229}}
            """), url: DecodingFixture.layerURL)
        #expect(metadata.name == "")
        #expect(metadata.maxRecordCount == 1000)
        #expect(metadata.capabilities.isEmpty)
        #expect(metadata.supportsQuery)
        #expect(!metadata.supportsStatistics)
        #expect(metadata.supportedQueryFormats.isEmpty)
        #expect(metadata.spatialReference == SpatialReference(wkid: 2229))
        #expect(metadata.fields == [LayerField(name: "OID", type: .objectID)])
    }

    @Test("a service with a group layer, sublayers and a table")
    func service() throws {
        let url = "https://maps.example.com/arcgis/rest/services/USA/MapServer"
        let metadata = try ArcGISResponse.serviceMetadata(bodyBytes(DecodingFixture.service), url: url + "?f=pjson&token=SECRET")
        #expect(metadata.url == url)
        #expect(metadata.maxRecordCount == 1000)
        #expect(metadata.capabilities == ["Map", "Query", "Data"])
        #expect(metadata.layers == [
            .init(id: 0, name: "Census", parentLayerId: nil, subLayerIds: [1, 2]),
            .init(id: 1, name: "Block Points", parentLayerId: 0),
            .init(id: 2, name: "States", parentLayerId: 0, type: "Feature Layer"),
            .init(id: 3, name: "Owners", isTable: true),
        ])
        // A whole-service target queries the feature layers: not the group, not the table.
        #expect(metadata.layers.map(\.isQueryableFeatureLayer) == [false, true, true, false])
    }

    @Test("raster, group and annotation layers are not queryable feature layers; a layer without a type is")
    func layerTypes() throws {
        let metadata = try ArcGISResponse.serviceMetadata(bodyBytes(#"""
            {"layers":[{"id":0,"name":"Cities","type":"Feature Layer"},{"id":4,"name":"Elevation","type":"Raster Layer"},
             {"id":5,"name":"Labels","type":"Annotation Layer"},{"id":6,"name":"Old"},{"id":7,"name":"G","type":"Group Layer"}]}
            """#), url: DecodingFixture.layerURL)
        #expect(metadata.layers.map(\.type) == ["Feature Layer", "Raster Layer", "Annotation Layer", nil, "Group Layer"])
        #expect(metadata.layers.filter(\.isQueryableFeatureLayer).map(\.id) == [0, 6])
    }

    @Test("a FeatureServer with only tables, and service shapes that are wrong")
    func serviceShapes() throws {
        let tablesOnly = try ArcGISResponse.serviceMetadata(
            bodyBytes(#"{"layers":null,"tables":[{"id":5,"name":"T"}],"capabilities":"Query"}"#), url: DecodingFixture.layerURL)
        #expect(tablesOnly.layers == [.init(id: 5, name: "T", isTable: true)])
        #expect(tablesOnly.maxRecordCount == nil)
        for (body, phrase) in [
            (#"{"layers":[{"name":"no id"}]}"#, "without an integer id"),
            (#"{"layers":{"0":"x"}}"#, "not an array"),
            (#"{"layers":[{"id":0,"subLayerIds":[1,"2"]}]}"#, "not an integer"),
            (#"{"layers":[{"id":0,"subLayerIds":"1,2"}]}"#, "not an array"),
            (#"{"folders":[],"services":[]}"#, "not the metadata of a FeatureServer or MapServer"),
        ] {
            let error = requireDecodingError { () throws(FeatureServiceError) in
                try ArcGISResponse.serviceMetadata(bodyBytes(body), url: DecodingFixture.layerURL)
            }
            #expect(error.code == .malformedResponse)
            #expect(error.message.contains(phrase), "\(error.message)")
            #expect(error.message.contains(DecodingFixture.layerURL))
        }
    }
}
