import BenchmarkSupport
import Foundation

/// The sorted object ids one side wrote (one decimal id per line), read back for comparison.
struct IDList: Equatable {
    let ids: [Int64]
    /// FNV-1a (64 bit) of the file's bytes: a short name for the set, printed so runs can be compared by eye.
    let digest: UInt64

    /// Reads and checks a file of ids: every line an integer, ascending without repeats.
    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var ids: [Int64] = []
        ids.reserveCapacity(data.count / 7)
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        var current: Int64 = 0
        var digits = 0
        for byte in data {
            digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times, overflow1) = current.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw BenchmarkError("\(path): an id beyond Int64") }
                current = sum
                digits += 1
            case UInt8(ascii: "\n"):
                guard digits > 0 else { throw BenchmarkError("\(path): an empty line after \(ids.count) ids") }
                if let last = ids.last, current <= last {
                    throw BenchmarkError("\(path): id \(current) follows \(last) (not ascending, or repeated)")
                }
                ids.append(current)
                current = 0
                digits = 0
            default:
                throw BenchmarkError("\(path): byte \(byte) is not part of a decimal id after \(ids.count) ids")
            }
        }
        guard digits == 0 else { throw BenchmarkError("\(path): the last line has no newline") }
        self.ids = ids
        self.digest = digest
    }

    var summary: String {
        guard let first = ids.first, let last = ids.last else { return "0 ids" }
        return "\(ids.count) ids \(first)…\(last) fnv1a64 \(String(digest, radix: 16))"
    }

    /// Why two sides' ids differ, in a line: counts, and the first ids only one side has.
    static func difference(_ a: IDList, _ aName: String, _ b: IDList, _ bName: String) -> String {
        let setA = Set(a.ids)
        let setB = Set(b.ids)
        let onlyA = a.ids.filter { !setB.contains($0) }
        let onlyB = b.ids.filter { !setA.contains($0) }
        func sample(_ list: [Int64]) -> String { list.prefix(5).map(String.init).joined(separator: ",") }
        return "\(aName) \(a.ids.count) ids, \(bName) \(b.ids.count) ids; only \(aName): \(onlyA.count) (\(sample(onlyA))), "
            + "only \(bName): \(onlyB.count) (\(sample(onlyB)))"
    }
}
