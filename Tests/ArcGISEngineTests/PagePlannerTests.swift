import Testing

import EngineExecution

@testable import ArcGISEngine

@Suite("PagePlanner: which pages to fetch, as a value")
struct PagePlannerTests {
    /// Runs a planner against a fake layer of `rows` rows whose service answers `answer(range)`.
    private func drain(
        _ planner: inout PagePlanner, answer: (PagePlanner.Range) -> (received: Int, exceeded: Bool)
    ) -> [PagePlanner.Range] {
        var fetched: [PagePlanner.Range] = []
        while let range = planner.next() {
            fetched.append(range)
            let (received, exceeded) = answer(range)
            planner.record(range, received: received, exceededTransferLimit: exceeded)
            if fetched.count > 1_000 { break }
        }
        return fetched
    }

    @Test func plansPagesFromTheCount() {
        var planner = PagePlanner(wanted: 4_500, pageSize: 2_000, extendPastWanted: true)
        let fetched = drain(&planner) { range in
            let received = max(0, min(range.count, 4_500 - range.offset))
            return (received, range.offset + received < 4_500)
        }
        #expect(fetched == [.init(offset: 0, count: 2_000), .init(offset: 2_000, count: 2_000), .init(offset: 4_000, count: 500)])
    }

    @Test func noPagesForAnEmptySelection() {
        var planner = PagePlanner(wanted: 0, pageSize: 1_000, extendPastWanted: true)
        #expect(planner.next() == nil)
    }

    @Test func shortPageWithTheFlagFetchesTheRestOfItsRange() {
        // The service trims every page to 700 rows but says more exist.
        var planner = PagePlanner(wanted: 2_000, pageSize: 1_000, extendPastWanted: true)
        let fetched = drain(&planner) { range in
            let received = min(700, range.count, 2_000 - range.offset)
            return (received, range.offset + received < 2_000)
        }
        let covered = fetched.reduce(into: 0) { $0 += min(700, $1.count) }
        #expect(covered == 2_000)
        #expect(fetched.contains(.init(offset: 700, count: 300)))
        #expect(fetched.contains(.init(offset: 1_700, count: 300)))
    }

    @Test func emptyPageWithTheFlagIsRetriedOnceThenAbandoned() {
        var planner = PagePlanner(wanted: 3_000, pageSize: 1_000, extendPastWanted: true)
        let fetched = drain(&planner) { range in
            range.offset == 1_000 ? (0, true) : (range.count, range.end < 3_000)
        }
        #expect(fetched.filter { $0.offset == 1_000 }.count == 2)
        // Abandoned: after its second empty page the range is not asked again, and the other pages are.
        #expect(fetched == [
            .init(offset: 0, count: 1_000), .init(offset: 1_000, count: 1_000), .init(offset: 1_000, count: 1_000),
            .init(offset: 2_000, count: 1_000),
        ])
        #expect(planner.next() == nil)
    }

    @Test func lastFullPageWithTheFlagKeepsPaging() {
        // The count said 2,000 but 3,500 rows exist by the time pages are read.
        var planner = PagePlanner(wanted: 2_000, pageSize: 1_000, extendPastWanted: true)
        let fetched = drain(&planner) { range in
            let received = max(0, min(range.count, 3_500 - range.offset))
            return (received, range.offset + received < 3_500)
        }
        #expect(fetched.map(\.offset) == [0, 1_000, 2_000, 3_000])
    }

    @Test func aLimitStopsPagingEvenWhenMoreRowsExist() {
        var planner = PagePlanner(wanted: 1_500, pageSize: 1_000, extendPastWanted: false)
        let fetched = drain(&planner) { range in (range.count, true) }
        #expect(fetched == [.init(offset: 0, count: 1_000), .init(offset: 1_000, count: 500)])
    }

    @Test func aServiceThatSetsTheFlagForeverIsCutOff() {
        var planner = PagePlanner(wanted: 10, pageSize: 10, extendPastWanted: true, maxExtensions: 5)
        let fetched = drain(&planner) { range in (range.count, true) }
        #expect(fetched.count == 6)
    }
}
