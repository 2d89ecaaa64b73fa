import FeatureQuerySupport
import FeatureGeometry
/// One vertex as the page wrote it: where its x and y number texts lie (copied verbatim), and their values
/// (for winding and ring closure).
struct PositionText {
    /// The position's array, `[` to `]` inclusive.
    var start: Int
    var end: Int
    /// Whether the array's text is exactly `[x,y]` (no spaces, no Z or M), so it can be copied whole.
    var isCompact: Bool
    var xStart: Int
    var xEnd: Int
    var yStart: Int
    var yEnd: Int
    var x: Double
    var y: Double
}

/// One ring of the current polygon: its vertices in ``GeoJSONPageTranscoder/ringPositions`` and its signed
/// area (negative for clockwise, Esri's outer rings).
struct RingInfo {
    var start: Int
    var count: Int
    var area: Double
}

/// The coordinate lists of Esri geometries (`points`, `paths`, `rings`) as GeoJSON coordinates: each
/// position's number texts are copied as they are, and only their values' winding decides the order.
extension GeoJSONPageTranscoder {
    private static let multiLineStringHeader: StaticString = #"{"type":"MultiLineString","coordinates":["#
    private static let lineStringHeader: StaticString = #"{"type":"LineString","coordinates":"#

    /// Transcodes `points`, `paths` or `rings` at the read position into ``output``. False (read
    /// position anywhere inside the value) when the value is not the plain shape the fast path takes.
    mutating func transcodeCoordinates(_ shape: GeometryShape) throws(JSONScanFailure) -> Bool {
        guard scanner.current == UInt8(ascii: "[") else { return false }
        scanner.index += 1  // depth 5
        scanner.skipWhitespace()
        // Empty lists are rare; the reference writer decides what they become.
        if scanner.current == UInt8(ascii: "]") { return false }
        switch shape {
        case .points: return try transcodePoints()
        case .paths: return try transcodePaths()
        case .rings: return try transcodeRings()
        case .none, .point: return false
        }
    }

    private mutating func transcodePoints() throws(JSONScanFailure) -> Bool {
        append(#"{"type":"MultiPoint","coordinates":["#)
        var first = true
        while true {
            guard let position = try readPosition(depth: 6) else { return false }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            appendPosition(position)
            guard let more = try listContinues() else { return false }
            if !more { break }
        }
        closeCoordinates()
        return true
    }

    /// One path is a LineString, several a MultiLineString; each needs two positions.
    private mutating func transcodePaths() throws(JSONScanFailure) -> Bool {
        append(Self.multiLineStringHeader)
        var pathCount = 0
        while true {
            guard scanner.current == UInt8(ascii: "[") else { return false }
            scanner.index += 1  // depth 6
            scanner.skipWhitespace()
            if pathCount > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "["))
            var count = 0
            while true {
                guard let position = try readPosition(depth: 7) else { return false }
                if count > 0 { output.append(UInt8(ascii: ",")) }
                appendPosition(position)
                count += 1
                guard let more = try listContinues() else { return false }
                if !more { break }
            }
            guard count >= 2 else { return false }
            output.append(UInt8(ascii: "]"))
            pathCount += 1
            guard let more = try listContinues() else { return false }
            if !more { break }
        }
        if pathCount == 1 {
            let header = geometryStart..<(geometryStart + Self.multiLineStringHeader.utf8CodeUnitCount)
            Self.lineStringHeader.withUTF8Buffer { output.replaceSubrange(header, with: $0) }
            output.append(UInt8(ascii: "}"))
        } else {
            closeCoordinates()
        }
        return true
    }

    /// Rings are read whole (closed, four positions or more, a clear winding) before anything is written,
    /// since the winding decides the order they are written in.
    private mutating func transcodeRings() throws(JSONScanFailure) -> Bool {
        ringPositions.removeAll(keepingCapacity: true)
        rings.removeAll(keepingCapacity: true)
        while true {
            guard scanner.current == UInt8(ascii: "[") else { return false }
            scanner.index += 1  // depth 6
            scanner.skipWhitespace()
            let start = ringPositions.count
            while true {
                guard let position = try readPosition(depth: 7) else { return false }
                ringPositions.append(position)
                guard let more = try listContinues() else { return false }
                if !more { break }
            }
            let count = ringPositions.count - start
            // An unclosed ring is closed by the reference decoder; too short a ring is its error.
            guard count >= 4, Self.ringIsClosed(scanner.bytes, ringPositions[start], ringPositions[start + count - 1]),
                let area = RingWinding.signedArea(ringPositions, start: start, count: count)
            else { return false }
            rings.append(RingInfo(start: start, count: count, area: area))
            guard let more = try listContinues() else { return false }
            if !more { break }
        }
        // RFC 7946 winding: exterior counter-clockwise, holes clockwise. One ring is the exterior whatever
        // its winding (the reference decoder turns an all-counter-clockwise polygon around, then the writer
        // turns it back); several rings go fast only as one clockwise exterior holding counter-clockwise holes.
        if rings.count == 1 {
            append(#"{"type":"Polygon","coordinates":["#)
            appendRing(rings[0], reversed: rings[0].area < 0)
        } else {
            guard let outer = RingWinding.exteriorHoldingHoles(rings, ringPositions) else { return false }
            append(#"{"type":"Polygon","coordinates":["#)
            appendRing(rings[outer], reversed: true)
            for index in rings.indices where index != outer {
                output.append(UInt8(ascii: ","))
                appendRing(rings[index], reversed: true)
            }
        }
        closeCoordinates()
        return true
    }

    /// After a list element: true after a ',' (and whitespace), false after the closing ']', nil for
    /// anything else.
    @inline(__always)
    private mutating func listContinues() throws(JSONScanFailure) -> Bool? {
        scanner.skipWhitespace()
        switch scanner.current {
        case UInt8(ascii: ","):
            scanner.index += 1
            scanner.skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            scanner.index += 1
            return false
        default:
            return nil
        }
    }

    /// `[x, y, ...]` with x and y finite numbers; later values (Z, M) are checked and dropped, as the
    /// reference decoder drops them. Counts against ``DecodingLimits/maxPositions``. Nil for another shape.
    @inline(__always)
    private mutating func readPosition(depth: Int) throws(JSONScanFailure) -> PositionText? {
        guard scanner.current == UInt8(ascii: "[") else { return nil }
        let start = scanner.index
        scanner.index += 1
        scanner.skipWhitespace()
        let xStart = scanner.index
        guard let x = try readCoordinate() else { return nil }
        let xEnd = scanner.index
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: ",") else { return nil }
        scanner.index += 1
        scanner.skipWhitespace()
        let yStart = scanner.index
        guard let y = try readCoordinate() else { return nil }
        let yEnd = scanner.index
        scanner.skipWhitespace()
        while scanner.current == UInt8(ascii: ",") {
            scanner.index += 1
            scanner.skipWhitespace()
            try scanner.skipValue(depth: depth)
            scanner.skipWhitespace()
        }
        guard scanner.current == UInt8(ascii: "]") else { return nil }
        scanner.index += 1
        positionCount += 1
        guard positionCount <= limits.maxPositions else { throw giveUp("more positions than the limit") }
        guard x.isFinite, y.isFinite else { return nil }
        return PositionText(
            start: start, end: scanner.index, isCompact: xStart == start + 1 && yStart == xEnd + 1 && yEnd + 1 == scanner.index,
            xStart: xStart, xEnd: xEnd, yStart: yStart, yEnd: yEnd, x: x, y: y)
    }

    /// Whether a ring's last position is its first: the same texts, or (rarely: `1.5` and `1.50`) texts whose
    /// correctly rounded values are equal, as the reference decoder compares them. Coordinates' values may be
    /// a rounding off the correct ones (``JSONNumberText/scanPlain(_:_:)``), so they are not compared.
    /// Static, over the page's bytes: as a method of the transcoder, its call from the mutating ring loop copied
    /// the whole transcoder (its arrays retained and released) once per ring.
    static func ringIsClosed(_ bytes: UnsafeBufferPointer<UInt8>, _ first: PositionText, _ last: PositionText) -> Bool {
        sameNumber(bytes, first.xStart, first.xEnd, last.xStart, last.xEnd)
            && sameNumber(bytes, first.yStart, first.yEnd, last.yStart, last.yEnd)
    }

    private static func sameNumber(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ otherStart: Int, _ otherEnd: Int
    ) -> Bool {
        if end - start == otherEnd - otherStart {
            var offset = 0
            while offset < end - start, bytes[start + offset] == bytes[otherStart + offset] { offset += 1 }
            if offset == end - start { return true }
        }
        return JSONNumberText.value(bytes, start, end) == JSONNumberText.value(bytes, otherStart, otherEnd)
    }

    /// A number at the read position, checked and read in one pass; nil when the value there is not a number.
    @inline(__always)
    private mutating func readCoordinate() throws(JSONScanFailure) -> Double? {
        let start = scanner.index
        if let (end, value) = JSONNumberText.scanPlain(scanner.bytes, start) {
            scanner.index = end
            return value
        }
        guard isNumberStart(scanner.current) else { return nil }
        try scanner.skipNumber()
        return JSONNumberText.value(scanner.bytes, start, scanner.index)
    }

    @inline(__always)
    private func isNumberStart(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Writing

    /// `]}`: the end of a coordinates list and of its geometry object.
    @inline(__always)
    mutating func closeCoordinates() {
        output.append(UInt8(ascii: "]"))
        output.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    mutating func appendBytes(_ start: Int, _ end: Int) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.bytes[start..<end]))
    }

    @inline(__always)
    private mutating func appendPosition(_ position: PositionText) {
        if position.isCompact {
            appendBytes(position.start, position.end)
            return
        }
        output.append(UInt8(ascii: "["))
        appendBytes(position.xStart, position.xEnd)
        output.append(UInt8(ascii: ","))
        appendBytes(position.yStart, position.yEnd)
        output.append(UInt8(ascii: "]"))
    }

    private mutating func appendRing(_ ring: RingInfo, reversed: Bool) {
        output.append(UInt8(ascii: "["))
        for offset in 0..<ring.count {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            appendPosition(ringPositions[reversed ? ring.start + ring.count - 1 - offset : ring.start + offset])
        }
        output.append(UInt8(ascii: "]"))
    }
}
