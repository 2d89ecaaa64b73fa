import Foundation
package import FeatureQuerySupport

extension ParsedJSON {
    /// Converts the output of Foundation's `JSONSerialization.jsonObject(with:)` (dictionaries, arrays,
    /// `NSNumber`, `String`, `NSNull`) so a geometry already parsed that way can be decoded without parsing
    /// it again. Booleans are told from numbers by their `NSNumber` type, and nesting is bounded by
    /// `limits.maxDepth`.
    ///
    /// Prefer handing FeatureGeometry the bytes: on Linux, `JSONSerialization` does not always round
    /// 17-digit numbers correctly (`-15.502616299293749` reads as `-15.502616299293743`), so coordinates that
    /// went through it can differ from the text in the last bits. `ParsedJSON(parsing:)` is correctly
    /// rounded.
    package init(jsonObject: Any, limits: DecodingLimits = .default) throws {
        self = try Self.convert(jsonObject, depth: 0, limits: limits)
    }

    private static func convert(_ object: Any, depth: Int, limits: DecodingLimits) throws -> ParsedJSON {
        guard depth < limits.maxDepth else {
            throw GeometryError(
                .limitExceeded, "the JSON is nested more than \(limits.maxDepth) levels deep; no geometry needs that")
        }
        switch object {
        case is NSNull:
            return .null
        case let value as Bool where !(object is NSNumber):
            return .bool(value)
        case let number as NSNumber:
            // JSONSerialization's booleans are NSNumbers of Objective-C type "c" (char).
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let value as String:
            return .string(value)
        case let items as [Any]:
            return .array(try items.enumerated().map { index, item in
                try inJSONPath("[\(index)]") { try convert(item, depth: depth + 1, limits: limits) }
            })
        case let members as [String: Any]:
            var result: [String: ParsedJSON] = [:]
            result.reserveCapacity(members.count)
            for (key, member) in members {
                result[key] = try inJSONPath(".\(key)") { try convert(member, depth: depth + 1, limits: limits) }
            }
            return .object(result)
        default:
            throw GeometryError(
                .invalidGeometry,
                "a value of type \(type(of: object)) is not JSON; pass what JSONSerialization.jsonObject returns")
        }
    }
}
