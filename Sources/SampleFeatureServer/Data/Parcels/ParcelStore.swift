import FeatureQuerySupport
import QueryLanguage

/// Every parcel of the dataset, stored column by column (struct of arrays, in a class so that passing the
/// store around costs one reference) in about 31 bytes a parcel:
/// the bounding rectangle in whole Web Mercator centimeters, which corner (if any) is cut off, and the
/// attributes that vary. Polygons are rebuilt from these on demand; APN, year built and last sale date
/// are derived from the index. Parcel `i` has OBJECTID `i + 1`; ids follow the recursive subdivision
/// that generated the parcels, so neighbours have nearby ids and a spatial search yields ids in order.
final class ParcelStore: Sendable {
    let seed: UInt64
    let xmin: [Int32]
    let ymin: [Int32]
    let xmax: [Int32]
    let ymax: [Int32]
    /// 0: a rectangle; 1–4: the north-west, north-east, south-east or south-west corner is cut off.
    let corner: [UInt8]
    let useType: [UInt8]
    let city: [UInt8]
    let taxRateArea: [Int32]
    let landValue: [Int32]
    let improvementValue: [Int32]
    /// The subdivision tree, used as the spatial index.
    let tree: ParcelTree
    private let useTypeJSON = ParcelAttributes.useTypeJSON
    private let cityJSON = ParcelAttributes.cityJSON

    init(
        seed: UInt64, xmin: [Int32], ymin: [Int32], xmax: [Int32], ymax: [Int32], corner: [UInt8], useType: [UInt8],
        city: [UInt8], taxRateArea: [Int32], landValue: [Int32], improvementValue: [Int32], tree: ParcelTree
    ) {
        self.seed = seed
        self.xmin = xmin
        self.ymin = ymin
        self.xmax = xmax
        self.ymax = ymax
        self.corner = corner
        self.useType = useType
        self.city = city
        self.taxRateArea = taxRateArea
        self.landValue = landValue
        self.improvementValue = improvementValue
        self.tree = tree
    }

    var count: Int { xmin.count }

    /// Approximate heap bytes held, for the startup log.
    var memoryFootprint: Int {
        count * (4 * 4 + 3 + 3 * 4) + tree.memoryFootprint
    }

    /// The field order of the parcels layer (see ``LayerCatalog``).
    enum Field: Int, CaseIterable {
        case objectID, apn, useType, taxRateArea, landValue, improvementValue, situsCity, yearBuilt, lastSaleDate
    }

    func value(_ field: Int, _ index: Int) -> AttributeValue {
        switch Field(rawValue: field) {
        case .objectID: return .integer(Int64(index + 1))
        case .apn: return .string(ParcelAttributes.apn(index))
        case .useType: return ParcelAttributes.useTypeValues[Int(useType[index])]
        case .taxRateArea: return .integer(Int64(taxRateArea[index]))
        case .landValue: return .integer(Int64(landValue[index]))
        case .improvementValue: return .integer(Int64(improvementValue[index]))
        case .situsCity: return ParcelAttributes.cityValues[Int(city[index])]
        case .yearBuilt:
            return ParcelAttributes.yearBuilt(seed: seed, index: index, improved: improvementValue[index] > 0)
                .map { .integer(Int64($0)) } ?? .null
        case .lastSaleDate:
            return ParcelAttributes.lastSaleDate(seed: seed, index: index).map { .date($0) } ?? .null
        case nil: return .null
        }
    }

    /// Writes one attribute value as JSON, without building an ``AttributeValue``.
    func writeValue(_ field: Int, _ index: Int, to json: inout JSONWriter) {
        switch Field(rawValue: field) {
        case .objectID: json.integer(index + 1)
        case .apn: ParcelAttributes.writeAPN(index, to: &json)
        case .useType: useTypeJSON.write(Int(useType[index]), to: &json)
        case .taxRateArea: json.integer(Int(taxRateArea[index]))
        case .landValue: json.integer(Int(landValue[index]))
        case .improvementValue: json.integer(Int(improvementValue[index]))
        case .situsCity: cityJSON.write(Int(city[index]), to: &json)
        case .yearBuilt:
            if let year = ParcelAttributes.yearBuilt(seed: seed, index: index, improved: improvementValue[index] > 0) {
                json.integer(year)
            } else {
                json.raw("null")
            }
        case .lastSaleDate:
            if let date = ParcelAttributes.lastSaleDate(seed: seed, index: index) { json.integer(Int(date)) } else { json.raw("null") }
        case nil: json.raw("null")
        }
    }

    /// Writes the features at `selection[range]` as Esri JSON: the hot loop of small-extent queries,
    /// specialized for parcels so that nothing is looked up twice.
    func writeFeatures(
        _ selection: [Int32], _ range: Range<Int>, fields: [Int], keys: ByteTable, geometry: Bool,
        transform: CoordinateTransform, to json: inout JSONWriter
    ) {
        for position in range {
            let index = Int(selection[position])
            if position > range.lowerBound { json.byte(UInt8(ascii: ",")) }
            json.raw("{\"attributes\":{")
            for (fieldPosition, field) in fields.enumerated() {
                if fieldPosition > 0 { json.byte(UInt8(ascii: ",")) }
                keys.write(fieldPosition, to: &json)
                writeValue(field, index, to: &json)
            }
            json.byte(UInt8(ascii: "}"))
            if geometry {
                json.raw(",\"geometry\":")
                writeRing(index, transform, to: &json)
            }
            json.byte(UInt8(ascii: "}"))
        }
    }
}
