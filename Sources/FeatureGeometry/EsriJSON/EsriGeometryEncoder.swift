/// The Esri JSON writing rules behind ``EsriJSON``.
enum EsriGeometryEncoder {
    static func write(_ geometry: Geometry, to output: inout String) throws {
        switch geometry {
        case .point(let point):
            output.append("{\"x\":")
            try JSONTextWriter.append(point.x, to: &output)
            output.append(",\"y\":")
            try JSONTextWriter.append(point.y, to: &output)
        case .multipoint(let multipoint):
            output.append("{\"points\":")
            try JSONTextWriter.append(multipoint.points, to: &output)
        case .polyline(let polyline):
            output.append("{\"paths\":")
            try JSONTextWriter.append(polyline.paths, to: &output)
        case .polygon(let polygon):
            output.append("{\"rings\":")
            try JSONTextWriter.append(polygon.rings, to: &output)
        case .envelope(let envelope):
            output.append("{\"xmin\":")
            try JSONTextWriter.append(envelope.xmin, to: &output)
            output.append(",\"ymin\":")
            try JSONTextWriter.append(envelope.ymin, to: &output)
            output.append(",\"xmax\":")
            try JSONTextWriter.append(envelope.xmax, to: &output)
            output.append(",\"ymax\":")
            try JSONTextWriter.append(envelope.ymax, to: &output)
        }
        if let spatialReference = geometry.spatialReference {
            output.append(",\"spatialReference\":")
            write(spatialReference, to: &output)
        }
        output.append("}")
    }

    static func write(_ spatialReference: SpatialReference, to output: inout String) {
        output.append("{\"wkid\":")
        output.append(String(spatialReference.wkid))
        if let latest = spatialReference.latestWkid {
            output.append(",\"latestWkid\":")
            output.append(String(latest))
        }
        output.append("}")
    }
}
