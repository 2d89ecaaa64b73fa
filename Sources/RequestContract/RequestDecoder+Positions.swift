package import FeatureQuerySupport

extension RequestDecoder {
    /// The keys of a geometry object that hold positions, or geometries that do.
    private static let positionKeys: Set<String> = ["rings", "paths", "points", "coordinates", "geometries"]

    /// A request's positions take only numbers, or null, after x and y (`[x, y, z, m]`).
    ///
    /// FeatureGeometry reads services' responses too, and drops a Z or M it cannot use (an array, an object)
    /// rather than refuse a page a service wrote; a request is the caller's own and the contract's schema says
    /// what a position is, so a string or an object there is refused (`invalid_geometry`), not ignored.
    package static func checkPositionExtras(_ value: ParsedJSON, path: String) throws(ContractError) {
        switch value {
        case .array(let items):
            if items.count >= 2, case .number = items[0], case .number = items[1] {
                for index in items.indices.dropFirst(2) {
                    switch items[index] {
                    case .number, .null: continue
                    default:
                        throw ContractError.at(
                            "\(path)[\(index)]", .invalidGeometry,
                            "a position's \(index == 2 ? "z" : "m") must be a number or null, found \(RequestFieldReader.describe(items[index]))")
                    }
                }
                return
            }
            for (index, item) in items.enumerated() { try checkPositionExtras(item, path: "\(path)[\(index)]") }
        case .object(let members):
            for (key, member) in members where positionKeys.contains(key) { try checkPositionExtras(member, path: "\(path).\(key)") }
        case .null, .bool, .number, .string:
            return
        }
    }
}
