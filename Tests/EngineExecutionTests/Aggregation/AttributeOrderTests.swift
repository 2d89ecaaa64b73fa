import EngineExecution
import FeatureService
import QueryLanguage
import Testing

/// PostgreSQL's ORDER BY over attribute values: nulls last ascending and first descending, numbers across
/// integer and double exactly, strings by bytes, ties broken by id.
@Suite("AttributeOrder")
struct AttributeOrderTests {
    @Test func nullsSortLastAscendingAndFirstDescending() {
        let values: [AttributeValue] = [.integer(2), .null, .integer(1)]
        let ascending = AttributeOrder([OrderTerm(field: "f")])
        let descending = AttributeOrder([OrderTerm(field: "f", descending: true)])
        #expect(values.sorted { ascending.compare([$0], [$1]) < 0 } == [.integer(1), .integer(2), .null])
        #expect(values.sorted { descending.compare([$0], [$1]) < 0 } == [.null, .integer(2), .integer(1)])
    }

    @Test func integersAndDoublesCompareByValueExactly() {
        #expect(AttributeOrder.compare(.integer(1), .double(1.0)) == 0)
        #expect(AttributeOrder.compare(.integer(1), .double(1.5)) < 0)
        #expect(AttributeOrder.compare(.double(-0.5), .integer(0)) < 0)
        #expect(AttributeOrder.compare(.double(-0.5), .integer(-1)) > 0)
        // 2^53 + 1 is not representable as a Double: a comparison through Double would call these equal.
        #expect(AttributeOrder.compare(.integer(9_007_199_254_740_993), .double(9_007_199_254_740_992)) > 0)
        #expect(AttributeOrder.compare(.integer(.max), .double(0x1p63)) < 0)
        #expect(AttributeOrder.compare(.integer(.min), .double(-0x1p63)) == 0)
    }

    @Test func nanEqualsNanAndFollowsEveryNumber() {
        #expect(AttributeOrder.compare(.double(.nan), .double(.nan)) == 0)
        #expect(AttributeOrder.compare(.double(.nan), .double(.infinity)) > 0)
        #expect(AttributeOrder.compare(.integer(.max), .double(.nan)) < 0)
        #expect(AttributeOrder.compare(.double(.nan), .null) < 0)
    }

    @Test func stringsCompareByUTF8BytesAsTheCCollation() {
        #expect(AttributeOrder.compare(.string("Z"), .string("a")) < 0)
        #expect(AttributeOrder.compare(.string("ab"), .string("abc")) < 0)
        // "é" precomposed (C3 A9) and decomposed (65 CC 81) are canonically equal Swift strings but differ in bytes.
        #expect(AttributeOrder.compare(.string("e\u{301}"), .string("\u{E9}")) < 0)
        #expect(AttributeOrder.compare(.string("x"), .string("x")) == 0)
    }

    @Test func datesCompareByMillisecondsAndKindsNeverTie() {
        #expect(AttributeOrder.compare(.date(5), .date(7)) < 0)
        #expect(AttributeOrder.compare(.integer(5), .date(5)) < 0)
        #expect(AttributeOrder.compare(.string("1"), .integer(1)) > 0)
    }

    @Test func laterTermsBreakTiesThenTheIdAscending() {
        let order = AttributeOrder([OrderTerm(field: "a"), OrderTerm(field: "b", descending: true)])
        #expect(order.compare([.integer(1), .integer(1)], [.integer(1), .integer(2)]) > 0)
        #expect(order.compare([.integer(1), .integer(2)], [.integer(2), .integer(9)]) < 0)
        #expect(order.compare([.integer(1), .integer(2)], id: 7 as Int64, [.integer(1), .integer(2)], id: 3 as Int64) > 0)
        #expect(order.compare([.integer(1), .integer(2)], id: 3 as Int64, [.integer(1), .integer(2)], id: 7 as Int64) < 0)
        #expect(order.compare([.integer(1), .integer(2)], id: 3 as Int64, [.integer(1), .integer(2)], id: 3 as Int64) == 0)
    }

    @Test func isOrderedSpotsAPageThatGoesBackwards() {
        let order = AttributeOrder([OrderTerm(field: "a", descending: true)])
        #expect(order.isOrdered([[.null], [.integer(3)], [.integer(3)], [.double(1.5)]]))
        #expect(!order.isOrdered([[.integer(3)], [.null]]))
        #expect(!order.isOrdered([[.integer(3)], [.integer(1)], [.integer(2)]]))
        #expect(order.isOrdered([] as [[AttributeValue]]))
    }

    @Test func featureIDsOrderIntegersBeforeStrings() {
        let ids: [FeatureID] = [.string("b"), .integer(10), .string("B"), .integer(-2)]
        let sorted = ids.map(OrderedFeatureID.init).sorted().map(\.id)
        #expect(sorted == [.integer(-2), .integer(10), .string("B"), .string("b")])
    }

    @Test func keysAreEqualAsSQLComparesThem() {
        #expect(AttributeKey(.integer(1)) == AttributeKey(.double(1.0)))
        #expect(Set([AttributeKey(.integer(1)), AttributeKey(.double(1.0)), AttributeKey(.double(-0.0)), AttributeKey(.integer(0))]).count == 2)
        #expect(Set([AttributeKey(.double(.nan)), AttributeKey(.double(.nan))]).count == 1)
        #expect(AttributeKey(.string("e\u{301}")) != AttributeKey(.string("\u{E9}")))
        #expect(AttributeKey(.null) == AttributeKey(.null))
        #expect(AttributeKey(.date(1)) != AttributeKey(.integer(1)))
    }
}
