import FeatureGeometry
import FeatureQuerySupport

extension GeoJSONPageTranscoder {
    /// Appends constant text (no array to retain).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// Transcodes the `features` array at the read position (depth 2). Returns false, having written only
    /// part of it, when a feature's id could come only from `objectIdFieldName`, which the top level has not
    /// given yet: the caller then skips the array and transcodes it again once the top level is read.
    mutating func transcodeFeatures() throws(JSONScanFailure) -> Bool {
        guard scanner.current == UInt8(ascii: "[") else { throw giveUp("features that are not an array") }
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.index += 1
            return true
        }
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "{") else { throw giveUp("a feature that is not an object") }
            guard try transcodeFeature() else { return false }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "]"): scanner.index += 1; return true
            default: throw giveUp("',' or ']' expected in the features array")
            }
        }
    }

    /// Where the current feature's geometry went.
    private enum GeometryPlace { case none, inOutput, inScratch }

    /// One feature object (depth 3): `attributes` is scanned and its id found, `geometry` transcoded, other
    /// members skipped; the GeoJSON `Feature` is written as it goes. When the attributes come first (as
    /// ArcGIS sends them) the feature's head and geometry go straight into ``output``; a geometry that comes
    /// first, before the id is known, goes to ``geometryOutput`` and is copied after the head.
    private mutating func transcodeFeature() throws(JSONScanFailure) -> Bool {
        scanner.index += 1  // {
        let entryStart = output.count
        var attributes: Range<Int>?
        var objectId: Int64 = 0
        var geometry = GeometryPlace.none
        var sawGeometry = false
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") { throw giveUp("an empty feature") }
        var more = true
        while more {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { throw giveUp("a member name expected in a feature") }
            let key = try scanner.scanString()
            guard !key.hasEscapes else { throw giveUp("a feature member name with escapes") }
            try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
            scanner.skipWhitespace()
            if scanner.spanEquals(key, "attributes") {
                // Null or non-object attributes are a missing id or a malformed page: the reference path's.
                guard attributes == nil, scanner.current == UInt8(ascii: "{") else {
                    throw giveUp("attributes repeated or not an object")
                }
                let start = scanner.index
                var idValue = try scanAttributes()
                attributes = start..<scanner.index
                if idValue == nil { idValue = try resolveObjectID(in: start..<scanner.index) }
                guard let idValue else {
                    if objectIdFieldNameSettled { throw giveUp("a feature without an object id") }
                    return false
                }
                objectId = try readObjectID(idValue)
            } else if scanner.spanEquals(key, "geometry") {
                guard !sawGeometry else { throw giveUp("a repeated geometry") }
                sawGeometry = true
                if attributes != nil {
                    writeFeatureHead(objectId)
                    geometryStart = output.count
                    try transcodeGeometry()
                    geometry = .inOutput
                } else {
                    // Write into the scratch buffer; a failure abandons the whole transcoding, buffers included.
                    swap(&output, &geometryOutput)
                    output.removeAll(keepingCapacity: true)
                    geometryStart = 0
                    try transcodeGeometry()
                    swap(&output, &geometryOutput)
                    geometry = .inScratch
                }
            } else {
                try scanner.skipValue(depth: 3)
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): scanner.index += 1; more = false
            default: throw giveUp("',' or '}' expected in a feature")
            }
        }
        // No attributes: a GeoJSON-shaped feature, or a missing id; both the reference path's to handle.
        guard let attributes else { throw giveUp("a feature without attributes") }
        switch geometry {
        case .inOutput:
            break
        case .none:
            writeFeatureHead(objectId)
            append("null")
        case .inScratch:
            writeFeatureHead(objectId)
            output.append(contentsOf: geometryOutput)
        }
        append(#","properties":"#)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.bytes[attributes]))
        output.append(UInt8(ascii: "}"))
        entries.append(GeoJSONPage.Entry(objectId: objectId, start: entryStart, end: output.count))
        return true
    }

    /// `{"type":"Feature","id":<id>,"geometry":`
    private mutating func writeFeatureHead(_ objectId: Int64) {
        append(#"{"type":"Feature","id":"#)
        appendInteger(objectId)
        append(#","geometry":"#)
    }

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
