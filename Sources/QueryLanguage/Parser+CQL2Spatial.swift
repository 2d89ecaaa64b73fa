/// CQL2 text spatial predicates: `S_INTERSECTS(geometry, BBOX(-118, 33, -117, 34))` and WKT literals.
///
/// A predicate is recorded in ``Parser/spatialPredicates`` and stands in the tree as a ``CQL2SpatialMarker``,
/// so that the grammar (precedence, parentheses, `NOT`) stays the one the attribute conditions use; where it
/// ended up is checked afterwards (``CQL2SpatialSplit``).
extension Parser {
    /// One argument of a spatial function: a property name or a geometry literal.
    private enum SpatialArgument {
        case property(String)
        case geometry(CQL2GeometryLiteral)
    }

    /// The WKT geometry keywords, and `BBOX`.
    private static let geometryWords: Set<String> = [
        "BBOX", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION",
    ]

    /// `S_xxx(a, b)`, with the current token on the function's name.
    mutating func parseSpatialPredicate(
        _ relation: CQL2SpatialRelation, at start: Int
    ) throws(QueryLanguageError) -> FilterExpression {
        let name = relation.textName
        try openCall()
        let first = try parseSpatialArgument(of: name)
        try expect(.comma, "between the arguments of \(name)")
        let second = try parseSpatialArgument(of: name)
        try closeCall(of: name)
        let predicate: CQL2SpatialPredicate
        switch (first, second) {
        case (.property(let property), .geometry(let geometry)):
            predicate = CQL2SpatialPredicate(relation: relation, property: property, geometry: geometry)
        case (.geometry(let geometry), .property(let property)):
            predicate = CQL2SpatialPredicate(relation: relation.converse, property: property, geometry: geometry)
        default:
            throw fail(.invalidArgument, at: start) {
                "\(name) at column \($0) compares a geometry property with a geometry literal, such as "
                    + "\(name)(geometry, BBOX(-118, 33, -117, 34))"
            }
        }
        spatialPredicates.append(predicate)
        return try make(CQL2SpatialMarker.node(spatialPredicates.count - 1), at: start)
    }

    private mutating func parseSpatialArgument(of name: String) throws(QueryLanguageError) -> SpatialArgument {
        switch token.kind {
        case .quotedIdentifier:
            let property = token.value
            try advance()
            return .property(property)
        case .identifier:
            let word = tokenText.uppercased()
            if Self.geometryWords.contains(word) { return .geometry(try parseGeometryLiteral()) }
            let property = tokenText
            try advance()
            return .property(property)
        default:
            throw fail(.invalidArgument, at: token.start) {
                "expected a geometry property or a geometry literal such as BBOX(...) or POINT(...) as an argument of "
                    + "\(name) at column \($0), found \(describe(token))"
            }
        }
    }

    /// A WKT literal or `BBOX(...)`, with the current token on its keyword.
    private mutating func parseGeometryLiteral() throws(QueryLanguageError) -> CQL2GeometryLiteral {
        let start = token.start
        let word = tokenText.uppercased()
        try advance()
        if word != "BBOX", token.kind == .identifier, tokenText.uppercased() == "Z" { try advance() }
        switch word {
        case "BBOX":
            let values = try parenthesized { (parser) throws(QueryLanguageError) in try parser.commaSeparatedNumbers() }
            guard values.count == 4 || values.count == 6 else {
                throw fail(.invalidArgument, at: start) {
                    "BBOX at column \($0) takes 4 numbers (west, south, east, north) or 6 with heights; it has \(values.count)"
                }
            }
            return .bbox(values)
        case "POINT":
            return .point(try parenthesized { (parser) throws(QueryLanguageError) in try parser.position() })
        case "LINESTRING":
            return .lineString(try positionList())
        case "POLYGON":
            return .polygon(try rings())
        case "MULTIPOINT":
            return .multiPoint(try list { (parser) throws(QueryLanguageError) in
                // Both MULTIPOINT((1 2), (3 4)) and MULTIPOINT(1 2, 3 4) are in use.
                parser.token.kind == .symbol(.leftParen)
                    ? try parser.parenthesized { (inner) throws(QueryLanguageError) in try inner.position() }
                    : try parser.position()
            })
        case "MULTILINESTRING":
            return .multiLineString(try list { (parser) throws(QueryLanguageError) in try parser.positionList() })
        case "MULTIPOLYGON":
            return .multiPolygon(try list { (parser) throws(QueryLanguageError) in try parser.rings() })
        default:
            return .geometryCollection(try list { (parser) throws(QueryLanguageError) in
                guard parser.token.kind == .identifier, Self.geometryWords.contains(parser.tokenText.uppercased()),
                    parser.tokenText.uppercased() != "BBOX"
                else {
                    throw parser.fail(.syntaxError, at: parser.token.start) {
                        "expected a WKT geometry in GEOMETRYCOLLECTION at column \($0), found \(parser.describe(parser.token))"
                    }
                }
                return try parser.parseGeometryLiteral()
            })
        }
    }

    private mutating func rings() throws(QueryLanguageError) -> [[CQL2Position]] {
        try list { (parser) throws(QueryLanguageError) in try parser.positionList() }
    }

    private mutating func positionList() throws(QueryLanguageError) -> [CQL2Position] {
        try list { (parser) throws(QueryLanguageError) in try parser.position() }
    }

    /// `( item, item, ... )`, counted as one level of nesting.
    private mutating func list<Item>(
        _ item: (inout Parser) throws(QueryLanguageError) -> Item
    ) throws(QueryLanguageError) -> [Item] {
        try parenthesized { (parser) throws(QueryLanguageError) in
            var items = [try item(&parser)]
            while parser.token.kind == .symbol(.comma) {
                try parser.advance()
                items.append(try item(&parser))
            }
            return items
        }
    }

    private mutating func parenthesized<Value>(
        _ body: (inout Parser) throws(QueryLanguageError) -> Value
    ) throws(QueryLanguageError) -> Value {
        let open = token.start
        guard token.kind == .symbol(.leftParen) else {
            throw fail(.syntaxError, at: open) { "expected '(' in a geometry at column \($0), found \(describe(token))" }
        }
        try enterNesting(at: open)
        try advance()
        let value = try body(&self)
        try expect(.rightParen, "to close the '(' of the geometry")
        leaveNesting()
        return value
    }

    /// Two or three numbers separated by white space: one WKT position.
    private mutating func position() throws(QueryLanguageError) -> CQL2Position {
        var coordinates = [try signedNumber(), try signedNumber()]
        if token.kind == .integer || token.kind == .decimal || token.kind == .symbol(.minus) {
            coordinates.append(try signedNumber())
        }
        return coordinates
    }

    private mutating func commaSeparatedNumbers() throws(QueryLanguageError) -> [Double] {
        var values = [try signedNumber()]
        while token.kind == .symbol(.comma) {
            try advance()
            values.append(try signedNumber())
        }
        return values
    }

    private mutating func signedNumber() throws(QueryLanguageError) -> Double {
        var sign = 1.0
        if token.kind == .symbol(.minus) || token.kind == .symbol(.plus) {
            if token.kind == .symbol(.minus) { sign = -1 }
            try advance()
        }
        guard token.kind == .integer || token.kind == .decimal, let value = Double(tokenText), value.isFinite else {
            throw fail(.syntaxError, at: token.start) {
                "expected a coordinate at column \($0), found \(describe(token))"
            }
        }
        try advance()
        return sign * value
    }
}
