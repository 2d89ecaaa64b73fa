import FeatureGeometry

/// Reads the `geometry`, `geometryType`, `inSR` and `spatialRel` parameters into a spatial query in the
/// layer's spatial reference.
enum GeometryParameter {
    static func spatialQuery(
        _ text: String, parameters: RequestParameters, layer: LayerDefinition
    ) throws(ArcGISServiceError) -> SpatialQuery? {
        let inSR = try parameters.spatialReference("inSR")
        let type: GeometryType
        do {
            type = try GeometryType(esriName: parameters["geometryType"] ?? GeometryType.envelope.esriName)
        } catch {
            throw .invalidRequest("'geometryType' is invalid: \(RequestParameters.describe(error))")
        }
        let relation: SpatialRelation
        do {
            relation = try SpatialRelation(esriName: parameters["spatialRel"] ?? SpatialRelation.intersects.esriName)
        } catch {
            throw .invalidRequest("'spatialRel' is invalid: \(RequestParameters.describe(error))")
        }
        var geometry = try decode(text, type: type, inSR: inSR ?? layer.spatialReference)
        if let source = geometry.spatialReference, source != layer.spatialReference {
            do {
                geometry = try geometry.projected(to: layer.spatialReference)
            } catch {
                throw .invalidRequest("'geometry' cannot be projected: \(RequestParameters.describe(error))")
            }
        }
        guard !geometry.isEmpty, let query = SpatialQuery(geometry: geometry, relation: relation) else {
            throw .invalidRequest("'geometry' is empty")
        }
        return query
    }

    /// Esri JSON (`{"xmin":...}`, `{"rings":...}`, ...) or the simple syntax: `xmin,ymin,xmax,ymax` for an
    /// envelope, `x,y` for a point.
    private static func decode(_ text: String, type: GeometryType, inSR: SpatialReference) throws(ArcGISServiceError) -> Geometry {
        let trimmed = text.trimmingSpaces()
        if trimmed.hasPrefix("{") {
            do {
                return try EsriJSON.decode(trimmed, defaultSpatialReference: inSR)
            } catch {
                throw .invalidRequest("'geometry' is invalid: \(RequestParameters.describe(error))")
            }
        }
        let numbers = trimmed.split(separator: ",").map { Double($0.trimmingSpaces()) }
        guard numbers.allSatisfy({ $0?.isFinite == true }) else {
            throw .invalidRequest("'geometry' is invalid: expected Esri JSON or comma-separated numbers")
        }
        let values = numbers.compactMap { $0 }
        switch (type, values.count) {
        case (.envelope, 4):
            return .envelope(Envelope(xmin: values[0], ymin: values[1], xmax: values[2], ymax: values[3], spatialReference: inSR))
        case (.point, 2):
            return .point(Point(x: values[0], y: values[1], spatialReference: inSR))
        default:
            throw .invalidRequest(
                "'geometry' is invalid: \(values.count) numbers do not make a \(type.esriName); send xmin,ymin,xmax,ymax "
                    + "for an envelope, x,y for a point, or Esri JSON")
        }
    }
}
