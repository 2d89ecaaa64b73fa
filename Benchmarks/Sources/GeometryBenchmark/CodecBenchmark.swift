#if canImport(FeatureGeometry)
import FeatureGeometry
#endif
#if canImport(FeatureQuerySupport)
import FeatureQuerySupport
#endif
import Foundation

/// Esri JSON throughput for parcel polygons: FeatureGeometry's writer and reader against Foundation's
/// JSONSerialization on the same polygons (given to it as ready-made dictionaries, its best case).
func codecBenchmark(count: Int) throws -> [String] {
    let polygons = (0..<count).map { Geometry.polygon(ParcelGenerator.polygon(of: $0)) }

    let (text, encodeSeconds) = try timed { () throws -> String in
        var buffer = "["
        buffer.reserveCapacity(count * 200)
        for (index, polygon) in polygons.enumerated() {
            if index > 0 { buffer += "," }
            try EsriJSON.write(polygon, to: &buffer)
        }
        buffer += "]"
        return buffer
    }
    let bytes = Array(text.utf8)
    let (decoded, decodeSeconds) = try timed { () throws -> [Geometry] in
        guard case .array(let items) = try ParsedJSON(parsing: bytes) else { return [] }
        return try items.map { try EsriJSON.decode($0) }
    }
    guard decoded == polygons else {
        print("WRONG ANSWER: decoded polygons differ from the encoded ones")
        exit(1)
    }

    let objects: [[String: Any]] = polygons.map { geometry in
        guard case .polygon(let polygon) = geometry else { return [:] }
        return ["rings": polygon.rings.map { ring in ring.map { [$0.x, $0.y] } },
                "spatialReference": ["wkid": 102100, "latestWkid": 3857]]
    }
    let (foundationData, foundationEncodeSeconds) = try timed { try JSONSerialization.data(withJSONObject: objects) }
    let (foundationDecoded, foundationDecodeSeconds) = try timed { () throws -> [Geometry] in
        let parsed = try JSONSerialization.jsonObject(with: foundationData) as? [Any] ?? []
        return try parsed.map { try EsriJSON.decode(jsonObject: $0) }
    }
    guard foundationDecoded.count == count else { return ["codec: Foundation decoded \(foundationDecoded.count)"] }

    let megabytes = Double(bytes.count) / 1e6
    func rate(_ seconds: Double) -> String { "\(format(megabytes / seconds, 0)) MB/s" }
    return [
        "Esri JSON, \(count) parcel polygons (\(format(megabytes, 1)) MB):",
        "  encode  FeatureGeometry \(format(encodeSeconds * 1000, 1)) ms (\(rate(encodeSeconds)))   "
            + "JSONSerialization \(format(foundationEncodeSeconds * 1000, 1)) ms   "
            + "ratio \(format(foundationEncodeSeconds / encodeSeconds, 1))x",
        "  decode  FeatureGeometry \(format(decodeSeconds * 1000, 1)) ms (\(rate(decodeSeconds)))   "
            + "JSONSerialization + decode \(format(foundationDecodeSeconds * 1000, 1)) ms   "
            + "ratio \(format(foundationDecodeSeconds / decodeSeconds, 1))x",
    ]
}
