/// An ArcGIS field type, as layer metadata (`{layer}?f=json`, `fields[].type`) names it.
package enum FieldType: String, Hashable, Sendable, CaseIterable {
    case objectID = "esriFieldTypeOID"
    case integer = "esriFieldTypeInteger"
    case smallInteger = "esriFieldTypeSmallInteger"
    /// 64-bit integers (ArcGIS 11.2 and later).
    case bigInteger = "esriFieldTypeBigInteger"
    case double = "esriFieldTypeDouble"
    case single = "esriFieldTypeSingle"
    case string = "esriFieldTypeString"
    /// Milliseconds since 1970-01-01 UTC.
    case date = "esriFieldTypeDate"
    case globalID = "esriFieldTypeGlobalID"
    case guid = "esriFieldTypeGUID"

    /// The type of an Esri type name, or nil for one where clauses can't use (geometry, blob, raster, XML)
    /// or that this module does not know.
    package init?(esriName: String) {
        self.init(rawValue: esriName)
    }

    /// The Esri type name.
    package var esriName: String { rawValue }

    /// What kind of value the field holds, for type checks.
    var valueKind: ValueKind {
        switch self {
        case .objectID, .integer, .smallInteger, .bigInteger, .double, .single: return .number
        case .string, .globalID, .guid: return .string
        case .date: return .date
        }
    }
}

/// A field of a layer, as its metadata lists it.
package struct LayerField: Hashable, Sendable {
    package var name: String
    package var type: FieldType
    package var alias: String?

    package init(name: String, type: FieldType, alias: String? = nil) {
        self.name = name
        self.type = type
        self.alias = alias
    }
}

/// The fields of one layer, which clauses are checked against.
///
/// Names are matched without regard to letter case, as ArcGIS does; validated clauses use the layer's own
/// spelling.
package struct LayerSchema: Hashable, Sendable {
    /// The fields where clauses can use, in metadata order.
    package let fields: [LayerField]
    /// Fields the layer has whose types where clauses can't use, by name, with their Esri type names: named
    /// in errors so that a person learns why the field is refused.
    package let unusableFields: [String: String]
    private let byFoldedName: [String: Int]

    /// A schema of `fields`; when two names differ only in letter case, the first wins.
    package init(fields: [LayerField], unusableFields: [String: String] = [:]) {
        self.fields = fields
        self.unusableFields = unusableFields
        var index: [String: Int] = [:]
        for (position, field) in fields.enumerated() where index[Self.fold(field.name)] == nil {
            index[Self.fold(field.name)] = position
        }
        self.byFoldedName = index
    }

    /// A schema straight from layer metadata's `fields[{name, type}]`: fields of types where clauses can't
    /// use are kept aside in ``unusableFields``.
    package init(metadataFields: [(name: String, type: String)]) {
        var usable: [LayerField] = []
        var unusable: [String: String] = [:]
        for (name, typeName) in metadataFields {
            if let type = FieldType(esriName: typeName) {
                usable.append(LayerField(name: name, type: type))
            } else {
                unusable[name] = typeName
            }
        }
        self.init(fields: usable, unusableFields: unusable)
    }

    /// The field of that name, in any letter case.
    package func field(named name: String) -> LayerField? {
        byFoldedName[Self.fold(name)].map { fields[$0] }
    }

    /// The case-insensitive key of a name: ASCII names (nearly all) fold byte by byte, without allocating
    /// for names of up to 15 bytes; others use Unicode lower-casing.
    static func fold(_ name: String) -> String {
        let utf8 = name.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return name.lowercased() }
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var index = 0
            for byte in utf8 {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                index += 1
            }
            return index
        }
    }

    package static func == (lhs: LayerSchema, rhs: LayerSchema) -> Bool {
        lhs.fields == rhs.fields && lhs.unusableFields == rhs.unusableFields
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(unusableFields)
    }
}

/// The kinds of value type checks tell apart.
enum ValueKind: Sendable {
    case number, string, date

    var noun: String {
        switch self {
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        }
    }
}
