import FeatureQuerySupport
import QueryLanguage

/// A table of rows about parcels (`Parcel_Assessments` or `Parcel_Owners`), computed on demand from the row's
/// position and the seed: only ``ParcelChildRows`` is stored, so the table costs four bytes a parcel whatever
/// the dataset's size. Row `r` has OBJECTID `r + 1`; a parcel's rows are consecutive.
final class ParcelTable: Sendable {
    enum Kind: Sendable {
        /// 0 to 6 assessments a parcel (parcel OBJECTID 2 has 1,500); some parcels list their years newest first.
        case assessments
        /// One owner for nine parcels in ten, none for the others.
        case owners
    }

    let kind: Kind
    let rows: ParcelChildRows
    private let salt: UInt64

    /// Parcel OBJECTID 2 has this many assessments: more than the table's maxRecordCount (1000), so one origin
    /// alone exceeds the transfer limit of queryRelatedRecords.
    static let bigParcelAssessments = 1_500
    static let exemptions = ["Homeowners", "Veterans", "Disabled Veterans", "Religious"]
    static let ownerTypes = ["Individual", "Trust", "Corporation", "Government"]
    static let givenNames = ["Maria", "James", "Linda", "Robert", "Ana", "David", "Susan", "Jose", "Karen", "Michael"]
    static let familyNames = ["Garcia", "Smith", "Nguyen", "Johnson", "Lopez", "Kim", "Brown", "Hernandez", "Lee", "Davis"]

    init(_ kind: Kind, parcelCount: Int, seed: UInt64) {
        self.kind = kind
        let salt = seed ^ (kind == .assessments ? 0x4153_5345 : 0x4F57_4E52)
        self.salt = salt
        rows = ParcelChildRows(parcelCount: parcelCount) { parcel in
            let hash = SplitMix64.hash(salt, UInt64(parcel))
            switch kind {
            case .assessments: return parcel == 1 ? Self.bigParcelAssessments : Int(hash % 7)
            case .owners: return hash % 10 == 0 ? 0 : 1
            }
        }
    }

    var count: Int { rows.rowCount }

    /// The rows whose key (field 1, the parcel's APN) is one of `apns`, ascending: what a where clause
    /// `ParcelAPN IN (…)` can match, found without scanning the table.
    func rows(keyedBy apns: Set<String>) -> [Int32] {
        var result: [Int32] = []
        for apn in apns {
            guard let parcel = ParcelAttributes.index(ofAPN: apn) else { continue }
            result += rows.rows(ofParcel: parcel).map { Int32(truncatingIfNeeded: $0) }
        }
        return result.sorted()
    }

    func value(_ field: Int, _ row: Int) -> AttributeValue {
        if field == 0 { return .integer(Int64(row + 1)) }
        let parcel = rows.parcel(ofRow: row)
        if field == 1 { return .string(ParcelAttributes.apn(parcel)) }
        let hash = SplitMix64.hash(salt &+ 1, UInt64(row))
        switch kind {
        case .assessments: return assessment(field, row: row, parcel: parcel, hash: hash)
        case .owners: return owner(field, hash: hash)
        }
    }

    /// TaxYear, AssessedValue, Exemption. A parcel's years end at 2024 and ascend with OBJECTID, except on
    /// parcels whose hash says "reversed" (about one in four), where OBJECTID order is newest year first.
    private func assessment(_ field: Int, row: Int, parcel: Int, hash: UInt64) -> AttributeValue {
        switch field {
        case 2:
            let range = rows.rows(ofParcel: parcel)
            let position = row - range.lowerBound
            let reversed = (SplitMix64.hash(salt, UInt64(parcel)) >> 8) % 4 == 0
            let rank = reversed ? range.count - 1 - position : position
            return .integer(Int64(2024 - (range.count - 1 - rank) % 30))
        case 3:
            return hash % 10 == 0 ? .null : .integer(Int64(100_000 + (hash >> 16) % 1_900_000))
        default:
            return (hash >> 40) % 8 == 0 ? .string(Self.exemptions[Int((hash >> 44) % 4)]) : .null
        }
    }

    /// OwnerName and OwnerType.
    private func owner(_ field: Int, hash: UInt64) -> AttributeValue {
        let draw = hash % 100
        let type = draw < 60 ? 0 : draw < 80 ? 1 : draw < 95 ? 2 : 3
        if field == 3 { return .string(Self.ownerTypes[type]) }
        let family = Self.familyNames[Int((hash >> 20) % UInt64(Self.familyNames.count))]
        switch type {
        case 0: return .string(Self.givenNames[Int((hash >> 30) % UInt64(Self.givenNames.count))] + " " + family)
        case 1: return .string(family + " Family Trust")
        case 2: return .string(family + " Holdings LLC")
        default: return .string("County of Los Angeles")
        }
    }
}
