package import QueryLanguage

/// An attribute value as SQL's `GROUP BY` and `SELECT DISTINCT` tell values apart, for dictionary keys.
///
/// `AttributeValue`'s own equality is Swift's: `.integer(1)` differs from `.double(1)`, NaN differs from itself,
/// and strings are equal when canonically equivalent. Here, as in ``AttributeOrder``, two values are equal when
/// they compare equal: numbers by value across integer and double (`1 = 1.0` is true in SQL numeric
/// comparison), NaN equal to NaN, strings by bytes (the `C` collation), dates by milliseconds, and null equal
/// to null (null is one group and one distinct value). Values of different kinds are never equal.
package struct AttributeKey: Hashable, Sendable {
    package let value: AttributeValue

    package init(_ value: AttributeValue) {
        self.value = value
    }

    package static func == (a: AttributeKey, b: AttributeKey) -> Bool {
        AttributeOrder.compare(a.value, b.value) == 0
    }

    /// Equal keys hash alike: an integral double that fits an `Int64` hashes as that integer.
    package func hash(into hasher: inout Hasher) {
        switch value {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let integer):
            hasher.combine(1 as UInt8)
            hasher.combine(integer)
        case .double(let double):
            hasher.combine(1 as UInt8)
            if double.isNaN {
                hasher.combine(UInt64.max)
            } else if double >= -0x1p63, double < 0x1p63, double.rounded(.towardZero) == double {
                hasher.combine(Int64(double))
            } else {
                hasher.combine(double.bitPattern)
            }
        case .string(let string):
            hasher.combine(2 as UInt8)
            for byte in string.utf8 { hasher.combine(byte) }
            hasher.combine(string.utf8.count)
        case .date(let milliseconds):
            hasher.combine(3 as UInt8)
            hasher.combine(milliseconds)
        }
    }
}
