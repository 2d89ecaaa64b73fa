import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// The features of one layer, whatever store holds them: what the query executor and the response
/// writers read. Feature indices are store positions; OBJECTID is always index + 1.
enum FeatureSource: Sendable {
    /// Parcels; the layer holds those whose index is a multiple of `stride` (1: all of them).
    case parcels(ParcelStore, stride: Int)
    case generic(GenericFeatureStore)
    /// A table about parcels, without geometry.
    case table(ParcelTable)
    /// A layer without features (raster).
    case none

    var featureCount: Int {
        switch self {
        case .parcels(let store, let stride): (store.count + stride - 1) / stride
        case .generic(let store): store.count
        case .table(let table): table.count
        case .none: 0
        }
    }

    /// Whether the feature index belongs to the layer.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        switch self {
        case .parcels(let store, let stride): index >= 0 && index < store.count && index % stride == 0
        case .generic(let store): index >= 0 && index < store.count
        case .table(let table): index >= 0 && index < table.count
        case .none: false
        }
    }

    /// Calls `body` with every feature index of the layer, ascending.
    func forEachIndex(_ body: (Int) throws -> Void) rethrows {
        switch self {
        case .parcels(let store, let stride):
            for index in Swift.stride(from: 0, to: store.count, by: stride) { try body(index) }
        case .generic(let store):
            for index in 0..<store.count { try body(index) }
        case .table(let table):
            for index in 0..<table.count { try body(index) }
        case .none:
            break
        }
    }

    @inline(__always)
    func value(_ field: Int, _ index: Int) -> AttributeValue {
        switch self {
        case .parcels(let store, _): store.value(field, index)
        case .generic(let store): store.value(field, index)
        case .table(let table): table.value(field, index)
        case .none: .null
        }
    }

    /// Writes one attribute as JSON.
    func writeValue(_ field: Int, _ index: Int, to json: inout JSONWriter) {
        switch self {
        case .parcels(let store, _): store.writeValue(field, index, to: &json)
        case .generic(let store): json.attribute(store.value(field, index))
        case .table(let table): json.attribute(table.value(field, index))
        case .none: json.raw("null")
        }
    }

    /// The feature's geometry in the layer's spatial reference.
    func geometry(_ index: Int) -> Geometry? {
        switch self {
        case .parcels(let store, _): store.polygon(index)
        case .generic(let store): store.geometries[index]
        case .table, .none: nil
        }
    }

    /// The feature's bounding rectangle in the layer's spatial reference.
    func extent(_ index: Int) -> Envelope? {
        switch self {
        case .parcels(let store, _): store.extent(index)
        case .generic(let store): store.geometries[index].extent
        case .table, .none: nil
        }
    }

    /// Indices of the features matching the spatial query, ascending, restricted to those `include` accepts.
    func matches(_ query: SpatialQuery, include: (Int) -> Bool) throws -> [Int32] {
        switch self {
        case .parcels(let store, let stride):
            if stride == 1 { return try store.matches(query, include: include) }
            return try store.matches(query) { $0 % stride == 0 && include($0) }
        case .generic(let store):
            return try store.matches(query, include: include)
        case .table, .none:
            return []
        }
    }
}

extension JSONWriter {
    /// Writes an attribute value as ArcGIS does: dates as epoch milliseconds.
    mutating func attribute(_ value: AttributeValue) {
        switch value {
        case .null: raw("null")
        case .integer(let number): integer(Int(number))
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .date(let milliseconds): integer(Int(milliseconds))
        }
    }
}
