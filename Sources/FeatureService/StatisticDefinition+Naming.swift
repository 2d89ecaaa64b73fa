/// Statistic names: what a statistic is answered under when the request gave no name. One rule for the
/// decoder (which fills the name in) and for tools that print results (which look the column up by it).
extension StatisticDefinition {
    /// `<type>_<field>`, with every character that ArcGIS's `outStatisticFieldName` does not allow (anything
    /// but ASCII letters, digits and `_`) made `_`: `sum_Roll_LandValue`, `count__` for `count` of `*`.
    package static func defaultName(type: StatisticType, field: String) -> String {
        let cleaned = String(String.UnicodeScalarView(field.unicodeScalars.map { scalar in
            scalar.isASCII && isNameByte(UInt8(scalar.value)) ? scalar : "_"
        }))
        return "\(type.rawValue)_\(cleaned)"
    }

    /// Whether `name` follows ArcGIS's rule: one or more ASCII letters, digits and `_`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isNameByte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
}
