import FeatureQuerySupport

/// Where a result is stored: `<prefix>/<taskId>/<requestId>/<layer>.<extension>[.gz|.zst]`.
///
/// Named by the request, not by the run: a request redelivered after a crash (the same requestId) writes the same
/// name and overwrites its object instead of leaving a second one; a newer request of the task gets a name of its
/// own. The layer is named by its identity (``layerSegment(url:layerId:collection:)``), never by the order layers
/// finished in, which differs between runs. The ids are percent-encoded down to S3's safe characters, so no id can
/// climb out of its folder (`/`, `..`) or need escaping in a URL.
package enum StoredObjectName {
    /// The key of the object of one layer (`layer`: its ``layerSegment(url:layerId:collection:)``) of the request.
    package static func key(
        prefix: String, taskId: String, requestId: String, layer: String, format: StoredObjectFormat,
        compression: StoredObjectCompression? = nil
    ) -> String {
        var trimmed = Substring(prefix)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        let name = "\(segment(layer)).\(format.fileExtension)" + (compression.map { ".\($0.fileExtension)" } ?? "")
        let path = [segment(taskId), segment(requestId), name].joined(separator: "/")
        return trimmed.isEmpty ? path : "\(trimmed)/\(path)"
    }

    /// A layer's name within its request: the ArcGIS layer id or the OGC collection id (readable in a listing),
    /// then the first 12 hex digits of the SHA-256 of its URL (two targets may both have a layer 0). Stable: the
    /// same layer of a redelivered request gets the same name.
    package static func layerSegment(url: String, layerId: Int?, collection: String?) -> String {
        let hash = String(SHA256.hexDigest(Array(url.utf8)).prefix(12))
        if let layerId { return "layer\(layerId)-\(hash)" }
        if let collection { return "\(collection.prefix(64))-\(hash)" }
        return "layer-\(hash)"
    }

    /// `id` with every byte outside `A–Z a–z 0–9 - _ .` written `%XX`, and a leading `.` too (no `.` or `..` segment).
    static func segment(_ id: String) -> String {
        var out: [UInt8] = []
        for (index, byte) in id.utf8.enumerated() {
            let safe = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (byte == UInt8(ascii: ".") && index > 0)
            if safe {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(ASCII.uppercaseHexDigit(byte >> 4))
                out.append(ASCII.uppercaseHexDigit(byte & 0x0F))
            }
        }
        return out.isEmpty ? "%00" : String(decoding: out, as: UTF8.self)
    }
}
