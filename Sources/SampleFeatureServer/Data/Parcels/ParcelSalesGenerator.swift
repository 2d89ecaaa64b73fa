import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// Generates the time-aware `Parcel_Sales` layer: sales of parcels over ten years (2015–2024, UTC), points at
/// their parcels' centers, so that `time=`, statistics, grouping and distinct values have a layer to run on.
///
/// The first 15 rows are fixed detector vectors with hand-computable answers (``vectorRows``): DocType
/// `Vector 1-10` holds SalePrice 1…10 (percentile 0.9: cont 9.1, disc 9), `Vector 1,3` holds 1 and 3 (sample
/// stddev √2, var 2), `Vector single` one value (stddev/var null), `Vector nulls` only a NULL price, and one
/// row has a NULL DocType. Their dates sit on the time extent's ends and on both sides of the 2019–2021 US
/// daylight-saving changes; two are NULL. The rest is drawn from the seed: about 3% NULL DocType, 2% NULL
/// price, 5% NULL date.
enum ParcelSalesGenerator {
    static let fields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("APN", .string, alias: "Assessor Parcel Number", length: 12),
        FieldDefinition("UseType", .string, alias: "Use Type", length: 30),
        FieldDefinition("DocType", .string, alias: "Document Type", length: 20),
        FieldDefinition("SalePrice", .integer, alias: "Sale Price"),
        FieldDefinition("SaleDate", .date, alias: "Sale Date"),
    ]
    static let saleCount = 6_000
    /// 2015-01-01T00:00:00Z and 2024-12-31T23:59:59Z: the time extent (both held by detector rows).
    static let firstDate: Int64 = 1_420_070_400_000
    static let lastDate: Int64 = 1_735_689_599_000
    static let docTypes = ["Grant Deed", "Trust Transfer", "Quitclaim Deed", "Sheriff Deed"]

    /// The detector rows: DocType, SalePrice, SaleDate (epoch ms).
    static let vectorRows: [(docType: String?, price: Int64?, date: Int64?)] = [
        ("Vector 1-10", 1, firstDate),
        ("Vector 1-10", 2, 1_615_715_999_999),  // 2021-03-14 01:59:59.999 PST, just before the spring change
        ("Vector 1-10", 3, 1_615_716_000_000),  // 2021-03-14 03:00 PDT, just after it
        ("Vector 1-10", 4, 1_636_273_800_000),  // 2021-11-07 01:30 PDT (first 01:30)
        ("Vector 1-10", 5, 1_636_277_400_000),  // 2021-11-07 01:30 PST (second 01:30)
        ("Vector 1-10", 6, 1_583_661_600_000),  // 2020-03-08 03:00 PDT
        ("Vector 1-10", 7, 1_604_221_199_000),  // 2020-11-01 01:59:59 PDT
        ("Vector 1-10", 8, 1_604_221_200_000),  // 2020-11-01 01:00 PST
        ("Vector 1-10", 9, 1_560_600_000_000),  // 2019-06-15 12:00 UTC
        ("Vector 1-10", 10, lastDate),
        ("Vector 1,3", 1, 1_560_600_000_000),
        ("Vector 1,3", 3, 1_560_600_000_000),
        ("Vector single", 7, nil),
        ("Vector nulls", nil, nil),
        (nil, 5, 1_615_716_000_000),
    ]

    static func generate(parcels: ParcelStore, seed: UInt64) throws -> GenericFeatureStore {
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = Array(repeating: [], count: fields.count)
        geometries.reserveCapacity(saleCount)
        let salt = seed ^ 0x5341_4C53
        for row in 0..<saleCount {
            let hash = SplitMix64.hash(salt, UInt64(row))
            let parcel = Int(hash % UInt64(max(1, parcels.count)))
            let box = parcels.extent(parcel)
            geometries.append(.point(Point(x: (box.xmin + box.xmax) / 2, y: (box.ymin + box.ymax) / 2, spatialReference: .webMercator)))
            columns[1].append(.string(ParcelAttributes.apn(parcel)))
            columns[2].append(parcels.value(ParcelStore.Field.useType.rawValue, parcel))
            if row < vectorRows.count {
                let vector = vectorRows[row]
                columns[3].append(vector.docType.map { .string($0) } ?? .null)
                columns[4].append(vector.price.map { .integer($0) } ?? .null)
                columns[5].append(vector.date.map { .date($0) } ?? .null)
                continue
            }
            var random = SplitMix64(seed: hash)
            let docDraw = random.below(100)
            columns[3].append(docDraw < 3 ? .null : .string(docTypes[(docDraw * 7) % docTypes.count]))
            let assessed = Double(parcels.landValue[parcel]) + Double(parcels.improvementValue[parcel])
            let price = (max(assessed, 50_000) * random.uniform(0.8, 1.5) / 1_000).rounded() * 1_000
            columns[4].append(random.below(100) < 2 ? .null : .integer(Int64(price)))
            let seconds = (lastDate - firstDate) / 1_000 - 2
            let date = firstDate + 1_000 * (1 + Int64(random.below(Int(seconds))))
            columns[5].append(random.below(100) < 5 ? .null : .date(date))
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .webMercator)
    }
}
