import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

@testable import QueryWorker
import WorkerTestSupport

/// The 1.2 result examples are what the encoder writes for the same outcomes: the examples document the
/// worker, not a wish.
@Suite struct ContractTableExampleTests {
    static let parcels = ContractEncodingTests.parcels

    static func message(
        _ requestId: String, taskId: String? = nil, finishedAfter: Int64, count: Int, complete: Bool = true,
        reason: IncompleteReason? = nil, selection: LayerSelection, aggregatedBy: ComputationSite? = nil,
        orderedBy: ComputationSite? = nil
    ) throws -> ResultMessage {
        let received = try ContractEncodingTests.ms("2025-06-01T12:00:00.000Z")
        let answer = ServiceLayerResult(
            url: parcels, layerId: 0, name: "LA_County_Parcels", objectIdField: "OBJECTID", count: count,
            isComplete: complete, selection: selection, incompleteReason: reason, aggregatedBy: aggregatedBy,
            orderedBy: orderedBy)
        return ResultMessage(
            requestId: requestId, taskId: taskId ?? requestId, layers: [ServiceLayerOutcome(url: parcels, result: .success(answer))],
            receivedAt: received, finishedAt: received + finishedAfter, worker: "query-worker-7d9f/1")
    }

    static func row(_ useType: String?, _ parcels: Int64, _ sum: Int64, _ mean: Double, _ median: Int64) -> StatisticsRow {
        StatisticsRow(
            group: [NamedValue("UseType", useType.map { .string($0) } ?? .null)],
            values: [
                NamedValue("parcels", .integer(parcels)), NamedValue("sum_Roll_LandValue", .integer(sum)),
                NamedValue("mean_land_value", .double(mean)), NamedValue("median_land_value", .integer(median)),
            ])
    }

    @Test func statisticsResultMatchesItsExample() throws {
        let rows = [
            Self.row("Residential", 2_012_118, 1_190_442_871_513, 591_638.4, 402_115),
            Self.row("Commercial", 198_311, 301_771_290_114, 1_521_705.2, 812_000),
            Self.row(nil, 3, 90_211, 30_070.3, 21_000),
        ]
        let message = try Self.message(
            "dashboard-7/0003", taskId: "dashboard-7", finishedAfter: 640, count: 2_381_542, selection: .statistics(rows),
            aggregatedBy: .server, orderedBy: .server)
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-statistics.json"))
    }

    @Test func extentResultMatchesItsExample() throws {
        let envelope = Envelope(
            xmin: -13_210_633.5, ymin: 3_989_117.25, xmax: -13_152_907.0, ymax: 4_085_112.75,
            spatialReference: SpatialReference(wkid: 102_100, latestWkid: 3857))
        let message = try Self.message("zoom-to-selection-1", finishedAfter: 640, count: 8_410, selection: .extent(envelope))
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-extent.json"))
    }

    @Test func distinctResultMatchesItsExample() throws {
        let rows: [[NamedValue]] = [
            [NamedValue("UseType", .string("Commercial")), NamedValue("UseDescription", .string("Store"))],
            [NamedValue("UseType", .string("Residential")), NamedValue("UseDescription", .string("Single Family Residence"))],
            [NamedValue("UseType", .string("Residential")), NamedValue("UseDescription", .null)],
        ]
        let message = try Self.message(
            "use-types-1", finishedAfter: 640, count: 2_381_542, selection: .distinct(rows), aggregatedBy: .server)
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-distinct.json"))
    }

    @Test func orderedIdsResultMatchesItsExample() throws {
        let message = try Self.message(
            "top-land-value-ids", finishedAfter: 310, count: 2_012_118, complete: false, reason: .maxFeatures,
            selection: .objectIds([1_904_411, 1_183_290, 2_200_017, 1_184_001, 1_183_207]), orderedBy: .server)
        #expect(try ParsedJSON(parsing: message.encoded()) == ContractEncodingTests.example("result-ordered-ids.json"))
    }
}
