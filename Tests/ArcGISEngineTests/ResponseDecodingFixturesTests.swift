import ArcGISEngine
import SampleFeatureServer
import Testing
import FeatureService

// Shared fixtures and helpers for the ResponseDecoding* suites: bodies shaped like real ArcGIS answers.

func bodyBytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The error `body` throws, or nil when it returns.
func decodingError<T>(_ body: () throws(FeatureServiceError) -> T) -> FeatureServiceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The error, requiring one; records an issue (and returns a placeholder) when the call succeeded.
func requireDecodingError<T>(
    _ body: () throws(FeatureServiceError) -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> FeatureServiceError {
    if let error = decodingError(body) { return error }
    Issue.record("expected an FeatureServiceError", sourceLocation: sourceLocation)
    return FeatureServiceError(.init("none"), "", layer: "")
}

enum DecodingFixture {
    static let layerURL = "https://services.example.com/arcgis/rest/services/Parcels/FeatureServer/0"
    static let layerURLWithToken = layerURL + "?f=json&token=SECRET-TOKEN-123"

    /// A FeatureServer layer, as ArcGIS Online serves one.
    static let featureServerLayer = """
        {"currentVersion":11.2,"id":0,"name":"Parcels","type":"Feature Layer","geometryType":"esriGeometryPolygon",
         "description":"LA County parcels","extent":{"xmin":-1.3e7,"ymin":3.9e6,"xmax":-1.2e7,"ymax":4.1e6,
         "spatialReference":{"wkid":102100,"latestWkid":3857}},"objectIdField":"OBJECTID","globalIdField":"",
         "displayField":"APN","fields":[
          {"name":"OBJECTID","type":"esriFieldTypeOID","alias":"OBJECTID","sqlType":"sqlTypeOther","domain":null},
          {"name":"APN","type":"esriFieldTypeString","alias":"Assessor Parcel Number","length":10},
          {"name":"UseCode","type":"esriFieldTypeSmallInteger","alias":"Use Code"},
          {"name":"Roll_LandValue","type":"esriFieldTypeDouble","alias":"Land Value"},
          {"name":"Shape__Area","type":"esriFieldTypeDouble","alias":"Shape__Area"},
          {"name":"Shape","type":"esriFieldTypeGeometry","alias":"Shape"},
          {"name":"Sketch","type":"esriFieldTypeBlob","alias":"Sketch"},
          {"name":"LastSale","type":"esriFieldTypeDate","alias":"Last Sale","length":8}],
         "maxRecordCount":2000,"capabilities":"Query, Extract,Sync","supportedQueryFormats":"JSON, geoJSON, PBF",
         "advancedQueryCapabilities":{"supportsPagination":true,"supportsOrderBy":true,"supportsStatistics":true},
         "supportsStatistics":true,"useStandardizedQueries":true,"hasAttachments":false,
         "templates":[{"name":"Parcel","description":"a \\"quoted\\" template","prototype":{"attributes":{"APN":null}}}]}
        """

    /// A MapServer sublayer of an older server: no advancedQueryCapabilities, no maxRecordCount, a
    /// sourceSpatialReference and an extent with only WKT.
    static let mapServerSublayer = """
        {"currentVersion":10.21,"id":2,"name":"States","type":"Feature Layer","geometryType":"esriGeometryPolygon",
         "parentLayerId":-1,"subLayers":[],"extent":{"xmin":-178,"ymin":18,"xmax":-66,"ymax":71,
         "spatialReference":{"wkt":"GEOGCS[\\"GCS_WGS_1984\\"]"}},"sourceSpatialReference":{"wkid":4269,"latestWkid":4269},
         "fields":[{"name":"objectid","type":"esriFieldTypeOID","alias":"OBJECTID"},
          {"name":"state_name","type":"esriFieldTypeString","alias":"STATE_NAME","length":25},
          {"name":"pop2000","type":"esriFieldTypeInteger","alias":"POP2000"},
          {"name":"shape","type":"esriFieldTypeGeometry","alias":"Shape"}],
         "capabilities":"Map,Query,Data","supportedQueryFormats":"JSON, AMF"}
        """

    /// A table: no geometry, OID only from the field list.
    static let table = """
        {"id":3,"name":"Owners","type":"Table","geometryType":null,"fields":[
          {"name":"FID","type":"esriFieldTypeOID","alias":"FID"},
          {"name":"Owner","type":"esriFieldTypeString","alias":"Owner"},
          {"name":"Notes","type":"esriFieldTypeXML","alias":"Notes"}],
         "maxRecordCount":1000,"capabilities":"Query","advancedQueryCapabilities":{"supportsPagination":false}}
        """

    /// A MapServer group layer: no fields, sublayers only.
    static let groupLayer = """
        {"currentVersion":10.91,"id":0,"name":"Census","type":"Group Layer","geometryType":null,"parentLayerId":-1,
         "subLayers":[{"id":1,"name":"Block Points"},{"id":2,"name":"States"}],"fields":null,"capabilities":"Map,Query,Data"}
        """

    /// A MapServer with a group layer, sublayers and a table.
    static let service = """
        {"currentVersion":10.91,"serviceDescription":"USA","mapName":"Layers","capabilities":"Map,Query,Data",
         "maxRecordCount":1000,"layers":[
          {"id":0,"name":"Census","parentLayerId":-1,"defaultVisibility":true,"subLayerIds":[1,2],"minScale":0,"maxScale":0},
          {"id":1,"name":"Block Points","parentLayerId":0,"defaultVisibility":true,"subLayerIds":null},
          {"id":2,"name":"States","parentLayerId":0,"defaultVisibility":true,"subLayerIds":null,"type":"Feature Layer"}],
         "tables":[{"id":3,"name":"Owners","parentLayerId":-1,"subLayerIds":null}],
         "spatialReference":{"wkid":4269}}
        """

    static let pointPage = """
        {"objectIdFieldName":"OBJECTID","globalIdFieldName":"","geometryType":"esriGeometryPoint",
         "spatialReference":{"wkid":4326,"latestWkid":4326},
         "fields":[{"name":"OBJECTID","type":"esriFieldTypeOID","alias":"OBJECTID"},
                   {"name":"NAME","type":"esriFieldTypeString","alias":"Name","length":50},
                   {"name":"POP","type":"esriFieldTypeInteger","alias":"Population"}],
         "features":[
          {"attributes":{"OBJECTID":1,"NAME":"Los Angeles","POP":3898747},"geometry":{"x":-118.24,"y":34.05}},
          {"attributes":{"OBJECTID":2,"NAME":"Pasadena \\u00e9","POP":null},"geometry":{"x":-118.14,"y":34.15,
            "spatialReference":{"wkid":102100}}},
          {"attributes":{"OBJECTID":3,"NAME":"Nowhere","POP":0},"geometry":{"x":null,"y":null}}],
         "exceededTransferLimit":true}
        """

    static let polygonPage = """
        {"objectIdFieldName":"OBJECTID","geometryType":"esriGeometryPolygon",
         "spatialReference":{"wkid":102100,"latestWkid":3857},"fields":[{"name":"OBJECTID"},{"name":"APN"}],
         "features":[
          {"attributes":{"OBJECTID":10,"APN":"5555-001-001"},
           "geometry":{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}},
          {"attributes":{"OBJECTID":11,"APN":"5555-001-002"},"geometry":null},
          {"attributes":{"OBJECTID":12,"APN":"5555-001-003"}}]}
        """
}

