import FeatureQuerySupport

/// Reads coordinate arrays out of parsed JSON for both formats, counting positions against
/// ``DecodingLimits/maxPositions`` and naming the failing element's path in every error.
struct CoordinateDecoder {
    let limits: DecodingLimits
    private(set) var positionCount = 0

    init(limits: DecodingLimits) {
        self.limits = limits
    }

    /// `[x, y]`, `[x, y, z]` or `[x, y, z, m]`: x and y must be finite numbers; later values (Z, M) are
    /// dropped and may be null, as Esri writes a missing Z or M.
    mutating func position(_ value: ParsedJSON) throws -> Position {
        guard case .array(let items) = value else {
            throw GeometryError(.invalidGeometry, "a position must be an array [x, y]; found \(value.kindDescription)")
        }
        guard items.count >= 2 else {
            throw GeometryError(
                .invalidGeometry, "a position needs at least x and y; found an array of \(items.count)")
        }
        positionCount += 1
        guard positionCount <= limits.maxPositions else {
            throw GeometryError(
                .limitExceeded,
                "the geometry has more than \(limits.maxPositions) positions (raise DecodingLimits.maxPositions)")
        }
        let x = try inJSONPath("[0]") { try Self.coordinate(items[0], name: "x") }
        let y = try inJSONPath("[1]") { try Self.coordinate(items[1], name: "y") }
        return Position(x: x, y: y)
    }

    /// An array of positions with at least `minimumCount` of them.
    mutating func positions(_ value: ParsedJSON, minimumCount: Int = 0, what: String = "list") throws -> [Position] {
        guard case .array(let items) = value else {
            throw GeometryError(.invalidGeometry, "a \(what) must be an array of positions; found \(value.kindDescription)")
        }
        guard items.count >= minimumCount else {
            throw GeometryError(
                .invalidGeometry, "a \(what) needs at least \(minimumCount) positions; found \(items.count)")
        }
        var result: [Position] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try inJSONPath("[\(index)]") { try position(item) })
        }
        return result
    }

    /// An array of position arrays (paths or rings), each checked by `part`.
    mutating func positionLists(
        _ value: ParsedJSON, what: String, part: (inout CoordinateDecoder, ParsedJSON) throws -> [Position]
    ) throws -> [[Position]] {
        guard case .array(let items) = value else {
            throw GeometryError(.invalidGeometry, "\(what) must be an array of arrays of positions; found \(value.kindDescription)")
        }
        var result: [[Position]] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try inJSONPath("[\(index)]") { try part(&self, item) })
        }
        return result
    }

    /// A path: at least two positions.
    mutating func path(_ value: ParsedJSON) throws -> [Position] {
        try positions(value, minimumCount: 2, what: "path")
    }

    /// A ring: closed if it was not, and then at least four positions (three corners and the closing one).
    mutating func ring(_ value: ParsedJSON) throws -> [Position] {
        let ring = RingMath.closed(try positions(value, what: "ring"))
        guard ring.count >= 4 else {
            throw GeometryError(
                .invalidGeometry,
                "a ring needs at least 4 positions (3 corners and the first repeated to close it); found \(ring.count)")
        }
        return ring
    }

    /// A coordinate value: a finite JSON number.
    static func coordinate(_ value: ParsedJSON, name: String) throws -> Double {
        switch value {
        case .number(let number) where number.isFinite:
            return number
        case .number:
            throw GeometryError(.invalidCoordinate, "\(name) is out of the range of a Double; coordinates must be finite")
        case .string(let text):
            throw GeometryError(
                .invalidCoordinate, "\(name) is the string \"\(text.prefix(40))\"; coordinates must be JSON numbers")
        default:
            throw GeometryError(.invalidCoordinate, "\(name) is \(value.kindDescription); coordinates must be JSON numbers")
        }
    }
}
