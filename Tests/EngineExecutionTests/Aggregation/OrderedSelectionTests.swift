import EngineExecution
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

/// The first N in an order, from items streamed in any order: equal to the prefix of a full sort, in O(N) memory.
@Suite("OrderedSelection")
struct OrderedSelectionTests {
    @Test func tiesAreBrokenByIdAscending() {
        var selection = OrderedSelection<Int64, String>(orderBy: [OrderTerm(field: "v", descending: true)], limit: nil)
        selection.add(key: [.integer(1)], id: 9, item: "nine")
        selection.add(key: [.integer(1)], id: 2, item: "two")
        selection.add(key: [.null], id: 5, item: "null")
        selection.add(key: [.integer(3)], id: 7, item: "three")
        #expect(selection.finish() == ["null", "three", "two", "nine"])
    }

    @Test func aLimitKeepsOnlyTheBestItems() {
        var selection = OrderedSelection<Int64, Int64>(orderBy: [OrderTerm(field: "v")], limit: 3)
        for id in (0..<100 as Range<Int64>).reversed() {
            selection.add(key: [.integer(id % 10)], id: id, item: id)
            #expect(selection.heldCount <= 3)
        }
        #expect(selection.addedCount == 100)
        #expect(selection.finish() == [0, 10, 20])
    }

    @Test func aZeroLimitKeepsNothing() {
        var selection = OrderedSelection<Int64, Int64>(orderBy: [], limit: 0)
        selection.add(key: [], id: 1, item: 1)
        #expect(selection.heldCount == 0)
        #expect(selection.finish().isEmpty)
    }

    @Test func featureIDsBreakTiesIntegersFirst() {
        var selection = OrderedSelection<OrderedFeatureID, FeatureID>(orderBy: [OrderTerm(field: "v")], limit: 2)
        for id in [FeatureID.string("a"), .integer(20), .integer(3)] {
            selection.add(key: [.string("same")], id: OrderedFeatureID(id), item: id)
        }
        #expect(selection.finish() == [.integer(3), .integer(20)])
    }

    /// A value drawn from a small domain, so ties, nulls and mixed integers and doubles are common.
    static func randomValue(_ random: inout SplitMix64) -> AttributeValue {
        switch random.below(6) {
        case 0: .null
        case 1: .double(Double(random.below(8)) / 2)
        case 2: .string(["a", "B", "b", "é"][random.below(4)])
        case 3: .date(Int64(random.below(5)))
        default: .integer(Int64(random.below(5)))
        }
    }

    /// The naive reference: sort everything with an independent comparator (nulls last ascending, first
    /// descending; numbers as Doubles, which is exact in this small domain), then take the prefix.
    static func naiveRank(_ value: AttributeValue) -> (Int, Double, [UInt8]) {
        switch value {
        case .integer(let v): (0, Double(v), [])
        case .double(let v): (0, v, [])
        case .date(let v): (1, Double(v), [])
        case .string(let v): (2, 0, Array(v.utf8))
        case .null: (3, 0, [])
        }
    }

    static func naiveLess(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        let (x, y) = (naiveRank(a), naiveRank(b))
        if x.0 != y.0 { return x.0 < y.0 }
        if x.1 != y.1 { return x.1 < y.1 }
        return x.2.lexicographicallyPrecedes(y.2)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func topNEqualsTheFullSortsPrefix(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let terms = (0..<(1 + random.below(3))).map { OrderTerm(field: "f\($0)", descending: random.below(2) == 0) }
        let count = random.below(300)
        let rows: [(key: [AttributeValue], id: Int64)] = (0..<count).map { index in
            (terms.map { _ in Self.randomValue(&random) }, Int64(index * 7919 % 1009))
        }.shuffled(using: &random)
        let expected = rows.sorted { a, b in
            for (index, term) in terms.enumerated() {
                let (x, y) = (a.key[index], b.key[index])
                if Self.naiveLess(x, y) { return !term.descending }
                if Self.naiveLess(y, x) { return term.descending }
            }
            return a.id < b.id
        }.map(\.id)
        for limit in [nil, 0, 1, 5, count / 2, count, count + 3] as [Int?] {
            var selection = OrderedSelection<Int64, Int64>(orderBy: terms, limit: limit)
            for row in rows { selection.add(key: row.key, id: row.id, item: row.id) }
            let prefix = Array(expected.prefix(limit ?? count))
            #expect(selection.finish() == prefix, "seed \(seed), limit \(String(describing: limit))")
        }
    }
}
