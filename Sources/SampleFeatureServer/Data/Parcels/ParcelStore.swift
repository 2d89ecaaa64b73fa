import QueryLanguage

/// Every parcel of the dataset, stored column by column (struct of arrays) in about 31 bytes a parcel:
/// the bounding rectangle in whole Web Mercator centimeters, which corner (if any) is cut off, and the
/// attributes that vary. Polygons are rebuilt from these on demand; APN, year built and last sale date
/// are derived from the index. Parcel `i` has OBJECTID `i + 1`; ids follow the recursive subdivision
/// that generated the parcels, so neighbours have nearby ids and a spatial search yields ids in order.
struct ParcelStore: Sendable {
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
    func writeValue(_ field: Int, _ index: Int, to json: inout JSONBuffer) {
        switch Field(rawValue: field) {
        case .objectID: json.int(index + 1)
        case .apn: json.string(ParcelAttributes.apn(index))
        case .useType: json.raw(ParcelAttributes.useTypeJSON[Int(useType[index])])
        case .taxRateArea: json.int(Int(taxRateArea[index]))
        case .landValue: json.int(Int(landValue[index]))
        case .improvementValue: json.int(Int(improvementValue[index]))
        case .situsCity: json.raw(ParcelAttributes.cityJSON[Int(city[index])])
        case .yearBuilt:
            if let year = ParcelAttributes.yearBuilt(seed: seed, index: index, improved: improvementValue[index] > 0) {
                json.int(year)
            } else {
                json.raw("null")
            }
        case .lastSaleDate:
            if let date = ParcelAttributes.lastSaleDate(seed: seed, index: index) { json.int(Int(date)) } else { json.raw("null") }
        case nil: json.raw("null")
        }
    }
}
