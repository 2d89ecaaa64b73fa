/// A parsed where clause, or a part of one: the syntax tree every other part of the module works on.
///
/// The same tree comes from ArcGIS SQL and from CQL2 text, so a clause can be read in one language and
/// written in the other. Two expressions are equal when their structure is: where they stood in the text
/// (``sourceOffset``) is kept for error messages only and is not part of equality, so
/// `parse(render(x)) == x` holds.
package struct FilterExpression: Hashable, Sendable {
    /// The shape of an expression.
    package indirect enum Node: Hashable, Sendable {
        /// A field (ArcGIS) or property (OGC) of the record.
        case field(String)
        case literal(Literal)
        /// Unary minus on something other than a number literal (`-(a + b)`); on a number it folds into it.
        case negate(FilterExpression)
        case arithmetic(ArithmeticOperator, FilterExpression, FilterExpression)
        case function(ScalarFunction)
        case comparison(ComparisonOperator, FilterExpression, FilterExpression)
        /// Two or more conditions, all of which must hold. `a AND b AND c` is one node with three terms.
        case and([FilterExpression])
        /// Two or more conditions, one of which must hold.
        case or([FilterExpression])
        case not(FilterExpression)
        case isNull(FilterExpression, negated: Bool)
        case inList(FilterExpression, [FilterExpression], negated: Bool)
        case between(FilterExpression, low: FilterExpression, high: FilterExpression, negated: Bool)
        /// `value LIKE 'pattern' [ESCAPE 'c']`; `%` matches any run of characters and `_` one character.
        case like(FilterExpression, pattern: String, escape: Unicode.Scalar?, negated: Bool)

        /// Whether this is a condition (true, false or unknown) rather than a value.
        var isCondition: Bool {
            switch self {
            case .comparison, .and, .or, .not, .isNull, .inList, .between, .like: return true
            case .field, .literal, .negate, .arithmetic, .function: return false
            }
        }

        /// The direct subexpressions, in source order.
        package var children: [FilterExpression] {
            switch self {
            case .field, .literal: return []
            case .negate(let operand), .not(let operand), .isNull(let operand, _), .like(let operand, _, _, _):
                return [operand]
            case .arithmetic(_, let left, let right), .comparison(_, let left, let right): return [left, right]
            case .function(let function): return function.arguments
            case .and(let terms), .or(let terms): return terms
            case .inList(let value, let items, _): return [value] + items
            case .between(let value, let low, let high, _): return [value, low, high]
            }
        }
    }

    /// What the expression is.
    package let node: Node
    /// The UTF-8 offset where this expression starts in the text it was parsed from; nil when built in code.
    package let sourceOffset: Int?
    /// The height of the tree (1 for a field or literal). Parsing refuses trees deeper than
    /// ``ClauseLimits/maxDepth``, which bounds every recursive walk.
    package let depth: Int

    /// An expression; the depth is computed from the children.
    package init(_ node: Node, sourceOffset: Int? = nil) {
        self.node = node
        self.sourceOffset = sourceOffset
        var deepest = 0
        switch node {
        case .field, .literal:
            break
        case .negate(let operand), .not(let operand), .isNull(let operand, _), .like(let operand, _, _, _):
            deepest = operand.depth
        case .arithmetic(_, let left, let right), .comparison(_, let left, let right):
            deepest = max(left.depth, right.depth)
        case .and(let terms), .or(let terms):
            for term in terms where term.depth > deepest { deepest = term.depth }
        case .inList(let value, let items, _):
            deepest = value.depth
            for item in items where item.depth > deepest { deepest = item.depth }
        case .between(let value, let low, let high, _):
            deepest = max(value.depth, low.depth, high.depth)
        case .function(let function):
            switch function {
            case .substring(let value, let start, let length):
                deepest = max(value.depth, start.depth, length?.depth ?? 0)
            case .currentDate, .currentTimestamp:
                break
            case .upper(let value), .lower(let value), .caseInsensitive(let value), .charLength(let value),
                .abs(let value), .round(let value, _), .trim(let value, _, _), .cast(let value, _):
                deepest = value.depth
            }
        }
        self.depth = deepest + 1
    }

    package static func == (lhs: FilterExpression, rhs: FilterExpression) -> Bool { lhs.node == rhs.node }
    package func hash(into hasher: inout Hasher) { hasher.combine(node) }

    /// Whether this is a condition rather than a value.
    var isCondition: Bool { node.isCondition }

    /// The same expression with a new node, keeping the source position.
    func replacing(_ node: Node) -> FilterExpression { FilterExpression(node, sourceOffset: sourceOffset) }

    /// The binding strength of the expression's outermost operator, for deciding on parentheses.
    var precedence: Int {
        switch node {
        case .or: return Precedence.or
        case .and: return Precedence.and
        case .not: return Precedence.not
        case .comparison, .isNull, .inList, .between, .like: return Precedence.predicate
        case .arithmetic(let op, _, _): return op.precedence
        case .negate: return Precedence.unary
        case .literal(.integer(let value)) where value < 0: return Precedence.unary
        case .literal(.double(let value)) where value.sign == .minus: return Precedence.unary
        case .field, .literal, .function: return Precedence.primary
        }
    }

    /// Every field the expression refers to, in order of first use, without repeats.
    package var referencedFields: [String] {
        var seen = Set<String>()
        var names: [String] = []
        var stack = [self]
        while let next = stack.popLast() {
            if case .field(let name) = next.node, seen.insert(name).inserted { names.append(name) }
            stack.append(contentsOf: next.node.children.reversed())
        }
        return names
    }
}
