/// The GeoJSON writing rules behind ``GeoJSON``.
enum GeoJSONGeometryEncoder {
    static func write(_ geometry: Geometry, to output: inout String, includeBoundingBox: Bool) throws {
        switch geometry {
        case .point(let point):
            try open("Point", geometry, includeBoundingBox, &output)
            try JSONTextWriter.append(point.position, to: &output)
        case .multipoint(let multipoint):
            try open("MultiPoint", geometry, includeBoundingBox, &output)
            try JSONTextWriter.append(multipoint.points, to: &output)
        case .polyline(let polyline):
            if polyline.paths.count == 1 {
                try open("LineString", geometry, includeBoundingBox, &output)
                try JSONTextWriter.append(polyline.paths[0], to: &output)
            } else {
                try open("MultiLineString", geometry, includeBoundingBox, &output)
                try JSONTextWriter.append(polyline.paths, to: &output)
            }
        case .polygon(let polygon):
            try writePolygon(polygon, geometry, includeBoundingBox, &output)
        case .envelope(let envelope):
            try open("Polygon", geometry, includeBoundingBox, &output)
            let ring = [
                Position(envelope.xmin, envelope.ymin), Position(envelope.xmax, envelope.ymin),
                Position(envelope.xmax, envelope.ymax), Position(envelope.xmin, envelope.ymax),
                Position(envelope.xmin, envelope.ymin),
            ]
            try JSONTextWriter.append([ring], to: &output)
        }
        output.append("}")
    }

    private static func writePolygon(
        _ polygon: Polygon, _ geometry: Geometry, _ includeBoundingBox: Bool, _ output: inout String
    ) throws {
        let groups = RingMath.groupedForGeoJSON(polygon.rings)
        // RFC 7946's right-hand rule: exterior counter-clockwise, holes clockwise (the reverse of Esri's).
        func rightHandRings(_ group: [Int]) -> [[Position]] {
            group.enumerated().map { slot, ring in RingMath.oriented(polygon.rings[ring], clockwise: slot > 0) }
        }
        if groups.count <= 1 {
            try open("Polygon", geometry, includeBoundingBox, &output)
            try JSONTextWriter.append(groups.first.map(rightHandRings) ?? [], to: &output)
            return
        }
        try open("MultiPolygon", geometry, includeBoundingBox, &output)
        output.append("[")
        for (index, group) in groups.enumerated() {
            if index > 0 { output.append(",") }
            try JSONTextWriter.append(rightHandRings(group), to: &output)
        }
        output.append("]")
    }

    /// Writes `{"type":"..."`, the optional bbox, and `,"coordinates":`.
    private static func open(
        _ type: String, _ geometry: Geometry, _ includeBoundingBox: Bool, _ output: inout String
    ) throws {
        output.append("{\"type\":\"")
        output.append(type)
        output.append("\"")
        if includeBoundingBox, let extent = geometry.extent {
            output.append(",\"bbox\":[")
            for (index, value) in [extent.xmin, extent.ymin, extent.xmax, extent.ymax].enumerated() {
                if index > 0 { output.append(",") }
                try JSONTextWriter.append(value, to: &output)
            }
            output.append("]")
        }
        output.append(",\"coordinates\":")
    }
}
