import FeatureQuerySupport

/// Where a result is stored: `<prefix>/<taskId>/<requestId>/<layer>.<extension>`.
///
/// Named by the request, not by the run: a request redelivered after a crash (the same requestId) writes the same
/// name and overwrites its object instead of leaving a second one; a newer request of the task gets a name of its
/// own. The ids are percent-encoded down to S3's safe characters, so no id can climb out of its folder (`/`, `..`)
/// or need escaping in a URL.
package enum StoredObjectName {
    /// The key of layer `layerIndex` (0-based, in the order of the outcome's layers) of the request.
    package static func key(
        prefix: String, taskId: String, requestId: String, layerIndex: Int, format: StoredObjectFormat, compression: StoredObjectCompression? = nil
    ) -> String {
        var trimmed = Substring(prefix)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        let name = "\(layerIndex).\(format.fileExtension)" + (compression.map { ".\($0.fileExtension)" } ?? "")
        let path = [segment(taskId), segment(requestId), name].joined(separator: "/")
        return trimmed.isEmpty ? path : "\(trimmed)/\(path)"
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
