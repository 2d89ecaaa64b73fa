import FeatureGeometry
import FeatureQuerySupport

/// Which kind of Esri geometry an object's members make it.
enum GeometryShape { case none, point, points, paths, rings }

/// A scalar member of a geometry (`x`, `y`): where its text lies and what it is.
private struct ScalarValue {
    enum Kind { case number, null, string, other }
    var start: Int
    var end: Int
    var kind: Kind
}

extension GeoJSONPageTranscoder {
    /// The feature's `geometry` value at the read position, written as GeoJSON (`null` for a null or empty
    /// geometry) at the end of ``output``, from ``geometryStart`` on. A value that is not an object or null is
    /// the reference path's error.
    mutating func transcodeGeometry() throws(JSONScanFailure) {
        switch scanner.current {
        case UInt8(ascii: "n"):
            try scanner.skipLiteral("null")
            append("null")
        case UInt8(ascii: "{"): try transcodeGeometryObject()
        default: throw giveUp("a geometry that is neither an object nor null")
        }
    }

    /// An Esri geometry object (depth 4). The fast path takes a point, `points`, `paths` and `rings` with
    /// plain numeric positions and no spatial reference of its own; anything else, including what the
    /// reference decoder would refuse, is decoded on its own by ``fallbackGeometry(_:)``.
    private mutating func transcodeGeometryObject() throws(JSONScanFailure) {
        let start = scanner.index
        scanner.index += 1  // {
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.index += 1
            append("null")  // {} is no geometry
            return
        }
        positionCount = 0
        var shapeKeys = 0
        var shape = GeometryShape.none
        var x: ScalarValue?
        var y: ScalarValue?
        var usable = true
        var more = true
        while more {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { throw giveUp("a member name expected in a geometry") }
            let key = try scanner.scanString()
            try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
            scanner.skipWhitespace()
            let valueStart = scanner.index
            if key.hasEscapes {
                usable = false
                try scanner.skipValue(depth: 4)
            } else if scanner.spanEquals(key, "x") {
                shapeKeys += 1
                shape = .point
                if x != nil { usable = false }
                x = try scanScalar()
            } else if scanner.spanEquals(key, "y") {
                if y != nil { usable = false }
                y = try scanScalar()
            } else if let kind = coordinateShape(key) {
                shapeKeys += 1
                shape = kind
                if usable, shapeKeys == 1, try transcodeCoordinates(kind) {
                    // written to output
                } else {
                    usable = false
                    scanner.index = valueStart
                    try scanner.skipValue(depth: 4)
                }
            } else if scanner.spanEquals(key, "spatialReference") {
                // A geometry's own spatial reference overrides the page's (and may need projecting).
                if scanner.current == UInt8(ascii: "n") {
                    try scanner.skipLiteral("null")
                } else {
                    usable = false
                    try scanner.skipValue(depth: 4)
                }
            } else {
                if scanner.spanEquals(key, "xmin") {
                    shapeKeys += 1
                    usable = false
                } else if scanner.spanEquals(key, "curvePaths") || scanner.spanEquals(key, "curveRings") {
                    usable = false
                }
                try scanner.skipValue(depth: 4)
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): scanner.index += 1; more = false
            default: throw giveUp("',' or '}' expected in a geometry")
            }
        }
        guard usable, shapeKeys == 1 else { return try fallbackGeometry(start..<scanner.index) }
        if shape == .point, !writePoint(x, y) {
            try fallbackGeometry(start..<scanner.index)
        }
    }

    private func coordinateShape(_ key: JSONByteScanner.StringSpan) -> GeometryShape? {
        if scanner.spanEquals(key, "rings") { return .rings }
        if scanner.spanEquals(key, "paths") { return .paths }
        if scanner.spanEquals(key, "points") { return .points }
        return nil
    }

    private mutating func scanScalar() throws(JSONScanFailure) -> ScalarValue {
        let start = scanner.index
        let kind: ScalarValue.Kind
        switch scanner.current {
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
            try scanner.skipNumber()
            kind = .number
        case UInt8(ascii: "n"):
            try scanner.skipLiteral("null")
            kind = .null
        case UInt8(ascii: "\""):
            _ = try scanner.scanString()
            kind = .string
        default:
            try scanner.skipValue(depth: 4)
            kind = .other
        }
        return ScalarValue(start: start, end: scanner.index, kind: kind)
    }

    /// `{"x":X,"y":Y}` → Point; `x` null or "NaN" is an empty point, no geometry. False for anything else.
    private mutating func writePoint(_ x: ScalarValue?, _ y: ScalarValue?) -> Bool {
        guard let x else { return false }
        switch x.kind {
        case .null:
            append("null")
            return true
        case .string:
            guard bytesEqual(x.start, x.end, #""NaN""#) else { return false }
            append("null")
            return true
        case .number:
            guard let y, y.kind == .number else { return false }
            let bytes = scanner.bytes
            guard JSONNumberText.value(bytes, x.start, x.end).isFinite, JSONNumberText.value(bytes, y.start, y.end).isFinite
            else { return false }
            append(#"{"type":"Point","coordinates":["#)
            appendBytes(x.start, x.end)
            output.append(UInt8(ascii: ","))
            appendBytes(y.start, y.end)
            closeCoordinates()
            return true
        case .other:
            return false
        }
    }

    private func bytesEqual(_ start: Int, _ end: Int, _ expected: StaticString) -> Bool {
        expected.withUTF8Buffer { expected in
            guard end - start == expected.count else { return false }
            for offset in 0..<expected.count where scanner.bytes[start + offset] != expected[offset] { return false }
            return true
        }
    }

    // MARK: The reference decoder, for one geometry

    /// Decodes one geometry as the reference path does (``EsriJSON`` with the page's spatial reference, an
    /// empty geometry as none) and writes it with ``GeoJSON``. A geometry the reference path refuses hands
    /// the page to it, so that its error is the one thrown.
    private mutating func fallbackGeometry(_ range: Range<Int>) throws(JSONScanFailure) {
        output.removeSubrange(geometryStart...)
        geometryFallbacks += 1
        let value = try parse(range)
        let geometry: Geometry
        do {
            geometry = try EsriJSON.decode(value, defaultSpatialReference: spatialReference, limits: limits)
        } catch let error as GeometryError where error.code == .emptyGeometry {
            append("null")
            return
        } catch {
            throw giveUp("a geometry the reference decoder refuses")
        }
        var text = ""
        do {
            try GeoJSON.write(geometry, to: &text)
        } catch {
            throw giveUp("a geometry the reference writer refuses")
        }
        output.append(contentsOf: text.utf8)
    }
}
