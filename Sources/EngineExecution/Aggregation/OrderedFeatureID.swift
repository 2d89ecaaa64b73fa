package import FeatureService

/// A feature id as the tie-break of an order: ``FeatureID`` itself is not `Comparable` (its integers and strings
/// are different ids, and nothing but an order needs to rank them). Integers come before strings, integers by
/// value, strings by UTF-8 bytes (the `C` collation, as ``AttributeOrder`` orders strings), so a server that
/// mixes id kinds still gets one total order.
package struct OrderedFeatureID: Comparable, Hashable, Sendable {
    package var id: FeatureID

    package init(_ id: FeatureID) {
        self.id = id
    }

    package static func < (a: OrderedFeatureID, b: OrderedFeatureID) -> Bool {
        switch (a.id, b.id) {
        case (.integer(let x), .integer(let y)): x < y
        case (.integer, .string): true
        case (.string, .integer): false
        case (.string(let x), .string(let y)): AttributeOrder.compareBytes(x, y) < 0
        }
    }
}
