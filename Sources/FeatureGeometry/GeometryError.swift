/// Why a geometry could not be decoded, encoded, projected or related.
///
/// Every failure in FeatureGeometry is this one type, so a caller handles geometry trouble in one place and
/// switches on ``code``. The ``message`` is written for the person who has to fix the input; ``path`` says
/// where in the JSON the problem sits.
package struct GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    ///
    /// A struct with static members rather than an enum, so that adding a code later never breaks a caller's
    /// exhaustive `switch`.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, safe to log and to match on across versions.
        package let rawValue: String
        /// A code; use the static members, or a new name for a failure of your own around geometry.
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The input is not JSON text (RFC 8259): empty, truncated, a stray character, invalid UTF-8 or escape.
        package static let malformedJSON = Code(rawValue: "malformedJSON")
        /// The JSON is well formed but is not a geometry in the format asked for (a wrong member or nesting).
        package static let invalidGeometry = Code(rawValue: "invalidGeometry")
        /// A coordinate is not a finite number: NaN, an infinity, a string, or out of the range of a Double.
        package static let invalidCoordinate = Code(rawValue: "invalidCoordinate")
        /// The geometry has no location where one is needed (Esri's `{"x": null}`, GeoJSON's empty Point).
        package static let emptyGeometry = Code(rawValue: "emptyGeometry")
        /// A geometry FeatureGeometry does not model: curves, a GeoJSON Feature, a mixed GeometryCollection.
        package static let unsupportedGeometryType = Code(rawValue: "unsupportedGeometryType")
        /// A spatial reference FeatureGeometry cannot work in (WKT only, or a projection other than 4326 <-> 3857).
        package static let unsupportedSpatialReference = Code(rawValue: "unsupportedSpatialReference")
        /// An operation needs to know a geometry's spatial reference and the geometry has none.
        package static let missingSpatialReference = Code(rawValue: "missingSpatialReference")
        /// A spatial relation that FeatureGeometry does not evaluate locally (Crosses, Overlaps, Touches, Relation).
        package static let unsupportedRelation = Code(rawValue: "unsupportedRelation")
        /// The input is larger or more deeply nested than the ``DecodingLimits`` allow.
        package static let limitExceeded = Code(rawValue: "limitExceeded")
        /// A bounding box for the spatial index is inverted or not finite.
        package static let invalidBoundingBox = Code(rawValue: "invalidBoundingBox")
    }

    /// What kind of failure this is; switch on it.
    package var code: Code
    /// What went wrong and what to do about it, for a person.
    package var message: String
    /// Where in the JSON input the problem is, as a path from the root (`$.rings[0][3]`); `nil` when the
    /// failure is not about one place in the input.
    package var path: String?

    /// An error with a code, a message that says what to do, and optionally where in the input it is.
    package init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    package var description: String {
        if let path { return "\(code) at \(path): \(message)" }
        return "\(code): \(message)"
    }

    /// This error, seen from one level further out in the JSON: `component` (".rings" or "[3]") goes in
    /// front of the path. Called only on the failure path, so decoding pays nothing for paths on success.
    func nested(in component: String) -> GeometryError {
        var copy = self
        let rest = path.map { String($0.dropFirst()) } ?? ""
        copy.path = "$" + component + rest
        return copy
    }
}

/// Runs `body`, putting `component` in front of the path of a ``GeometryError`` it throws.
@inline(__always)
func inJSONPath<T>(_ component: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as GeometryError {
        throw error.nested(in: component())
    }
}
