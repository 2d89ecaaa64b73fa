extension CQL2Conformance {
    /// S_INTERSECTS with a point or bounding box.
    package static let basicSpatialFunctions = prefix + "basic-spatial-functions"
    /// S_INTERSECTS with any geometry literal.
    package static let basicSpatialFunctionsPlus = prefix + "basic-spatial-functions-plus"
    /// Every S_ function.
    package static let spatialFunctions = prefix + "spatial-functions"
}

/// Which CQL2 conformance classes a parsed filter needs, by the same rules as ``CQL2Conformance`` applies
/// to what the renderers write, but on the tree as read (a `BETWEEN` of dates counts as one).
enum CQL2FilterConformance {
    /// Sorted class URIs. For spatial predicates only the narrowest class that covers them all is listed
    /// (each spatial class includes the ones before it).
    static func classes(
        _ attributes: FilterExpression?, _ spatial: [CQL2SpatialPredicate], encoding: String
    ) -> [String] {
        var classes: Set<String> = [CQL2Conformance.basic, encoding]
        if let attributes { collect(attributes, into: &classes) }
        if spatial.contains(where: { $0.relation != .intersects }) {
            classes.insert(CQL2Conformance.spatialFunctions)
        } else if spatial.contains(where: { !$0.geometry.isBasic }) {
            classes.insert(CQL2Conformance.basicSpatialFunctionsPlus)
        } else if !spatial.isEmpty {
            classes.insert(CQL2Conformance.basicSpatialFunctions)
        }
        return classes.sorted()
    }

    private static func collect(_ root: FilterExpression, into classes: inout Set<String>) {
        var stack = [root]
        while let expression = stack.popLast() {
            stack.append(contentsOf: expression.node.children)
            switch expression.node {
            case .negate, .arithmetic:
                classes.insert(CQL2Conformance.arithmetic)
            case .function(.caseInsensitive):
                classes.insert(CQL2Conformance.caseInsensitive)
            case .comparison(_, let left, let right):
                if !(isPropertyLike(left) && isLiteralLike(right)) { classes.insert(CQL2Conformance.propertyProperty) }
            case .like(let value, _, _, _):
                classes.insert(CQL2Conformance.advancedComparison)
                if !isPropertyLike(value) { classes.insert(CQL2Conformance.propertyProperty) }
            case .between(let value, let low, let high, _):
                classes.insert(CQL2Conformance.advancedComparison)
                if !(isPropertyLike(value) && isLiteralLike(low) && isLiteralLike(high)) {
                    classes.insert(CQL2Conformance.propertyProperty)
                }
            case .inList(let value, let items, _):
                classes.insert(CQL2Conformance.advancedComparison)
                if !(isPropertyLike(value) && items.allSatisfy(isLiteralLike)) {
                    classes.insert(CQL2Conformance.propertyProperty)
                }
            case .field, .literal, .function, .and, .or, .not, .isNull:
                break
            }
        }
    }

    private static func isPropertyLike(_ expression: FilterExpression) -> Bool {
        switch expression.node {
        case .field: return true
        case .function(.caseInsensitive(let inner)): return isPropertyLike(inner)
        default: return false
        }
    }

    private static func isLiteralLike(_ expression: FilterExpression) -> Bool {
        switch expression.node {
        case .literal: return true
        case .function(.caseInsensitive(let inner)): return isLiteralLike(inner)
        default: return false
        }
    }
}
