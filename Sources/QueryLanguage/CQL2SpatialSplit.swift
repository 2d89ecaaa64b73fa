/// The placeholder a spatial predicate leaves in the attribute tree while CQL2 text is parsed:
/// `"\0spatial" = index`. No parsed name can contain U+0000 (the lexer refuses it), so it can't clash.
enum CQL2SpatialMarker {
    static let fieldName = "\u{0}spatial"

    static func node(_ index: Int) -> FilterExpression.Node {
        .comparison(.equal, FilterExpression(.field(fieldName)), FilterExpression(.literal(.integer(Int64(index)))))
    }

    /// The index of the predicate `expression` stands for, if it is a marker.
    static func index(of expression: FilterExpression) -> Int? {
        guard case .comparison(.equal, let left, let right) = expression.node, case .field(fieldName) = left.node,
            case .literal(.integer(let index)) = right.node
        else { return nil }
        return Int(index)
    }
}

/// Takes the spatial predicates out of a parsed filter: each must be a top-level `AND` term, because the
/// server tests the spatial part apart from (and before) the attribute part, which is only right when every
/// spatial predicate must hold.
enum CQL2SpatialSplit {
    /// The attribute condition left (nil when there is none) and the spatial predicates in source order.
    /// `position` turns a misplaced predicate (its index and source offset) into the column and the words
    /// (`at column 12`, `at filter.args[1]`) the error points at it with.
    static func split(
        _ expression: FilterExpression, predicates: [CQL2SpatialPredicate],
        position: (_ index: Int, _ offset: Int?) -> (column: Int?, location: String)
    ) throws(QueryLanguageError) -> (attributes: FilterExpression?, spatial: [CQL2SpatialPredicate]) {
        guard !predicates.isEmpty else { return (expression, []) }
        var terms: [FilterExpression] = []
        var spatial: [CQL2SpatialPredicate] = []
        var pending = [expression]
        while let next = pending.popLast() {
            if case .and(let inner) = next.node {
                pending.append(contentsOf: inner.reversed())
            } else if let index = CQL2SpatialMarker.index(of: next), predicates.indices.contains(index) {
                spatial.append(predicates[index])
            } else if let misplaced = firstMarker(in: next), let index = CQL2SpatialMarker.index(of: misplaced) {
                let (column, location) = position(index, misplaced.sourceOffset)
                throw QueryLanguageError(
                    code: .spatialPredicatePlacement,
                    message: "the spatial predicate \(location) is inside OR, NOT or a comparison; spatial predicates "
                        + "may only be joined to the rest of the filter with AND at its top level",
                    column: column)
            } else {
                terms.append(next)
            }
        }
        switch terms.count {
        case 0: return (nil, spatial)
        case 1: return (terms[0], spatial)
        default: return (FilterExpression(.and(terms), sourceOffset: terms[0].sourceOffset), spatial)
        }
    }

    /// The first marker inside `expression`; the tree's height is bounded, so the walk is too.
    private static func firstMarker(in expression: FilterExpression) -> FilterExpression? {
        var stack = [expression]
        while let next = stack.popLast() {
            if CQL2SpatialMarker.index(of: next) != nil { return next }
            stack.append(contentsOf: next.node.children.reversed())
        }
        return nil
    }
}
