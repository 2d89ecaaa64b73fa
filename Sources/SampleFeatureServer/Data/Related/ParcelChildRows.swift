import FeatureQuerySupport

/// Which rows of a parcel's child table belong to which parcel, for millions of parcels: a count per parcel
/// drawn from a hash, kept only as a prefix sum of `Int32` (four bytes a parcel), so that a parcel's rows are
/// one contiguous OBJECTID range and a row finds its parcel by binary search.
struct ParcelChildRows: Sendable {
    /// `starts[p]` is the first row of parcel `p`; `starts[parcelCount]` the number of rows.
    private let starts: [Int32]

    /// `count(parcelIndex)` rows for each of `parcelCount` parcels, in parcel order.
    init(parcelCount: Int, count: (Int) -> Int) {
        var starts: [Int32] = []
        starts.reserveCapacity(parcelCount + 1)
        var total: Int32 = 0
        for parcel in 0..<parcelCount {
            starts.append(total)
            total += Int32(truncatingIfNeeded: count(parcel))
        }
        starts.append(total)
        self.starts = starts
    }

    var rowCount: Int { Int(starts[starts.count - 1]) }
    var parcelCount: Int { starts.count - 1 }

    /// The rows (0-based) of parcel `parcel`; empty for a parcel out of range.
    func rows(ofParcel parcel: Int) -> Range<Int> {
        guard parcel >= 0, parcel < parcelCount else { return 0..<0 }
        return Int(starts[parcel])..<Int(starts[parcel + 1])
    }

    /// The parcel row `row` belongs to: the last parcel whose first row is at or before it.
    func parcel(ofRow row: Int) -> Int {
        var low = 0
        var high = parcelCount
        let wanted = Int32(truncatingIfNeeded: row)
        while low < high {
            let middle = (low + high) / 2
            if starts[middle + 1] <= wanted { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
