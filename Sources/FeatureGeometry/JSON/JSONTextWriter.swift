/// Appends JSON text for coordinates straight into a `String`, without Foundation and without building a
/// tree: the encoders' fast path for writing many features.
enum JSONTextWriter {
    /// Runs `body` to append to `output`, and on error cuts `output` back to what it was, so a caller's
    /// buffer never holds half a geometry.
    static func appendingAtomically(to output: inout String, _ body: (inout String) throws -> Void) throws {
        let mark = output.utf8.count
        do {
            try body(&output)
        } catch {
            let cut = output.utf8.index(output.utf8.startIndex, offsetBy: mark)
            output.removeSubrange(cut...)
            throw error
        }
    }

    /// Writes the shortest text that reads back as exactly `value` (Swift's round-trip formatting), with a
    /// trailing ".0" dropped so integral values read as in the specifications' examples (`-118` not `-118.0`).
    /// Non-finite values have no JSON form and are a ``GeometryError/Code/invalidCoordinate`` error.
    @inline(__always)
    static func append(_ value: Double, to output: inout String) throws {
        guard value.isFinite else {
            throw GeometryError(
                .invalidCoordinate, "cannot encode the coordinate \(value): JSON numbers must be finite")
        }
        value.write(to: &output)
        let utf8 = output.utf8
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"),
            utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".")
        {
            output.removeLast(2)
        }
    }

    /// Writes `[x,y]`.
    @inline(__always)
    static func append(_ position: Position, to output: inout String) throws {
        output.append("[")
        try append(position.x, to: &output)
        output.append(",")
        try append(position.y, to: &output)
        output.append("]")
    }

    /// Writes `[[x,y],...]`.
    static func append(_ positions: [Position], to output: inout String) throws {
        output.append("[")
        for (index, position) in positions.enumerated() {
            if index > 0 { output.append(",") }
            try append(position, to: &output)
        }
        output.append("]")
    }

    /// Writes `[[[x,y],...],...]`.
    static func append(_ lists: [[Position]], to output: inout String) throws {
        output.append("[")
        for (index, list) in lists.enumerated() {
            if index > 0 { output.append(",") }
            try append(list, to: &output)
        }
        output.append("]")
    }
}
