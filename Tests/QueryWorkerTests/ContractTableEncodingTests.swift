import FeatureGeometry
import Foundation
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// Contract 1.2's result fields as the encoder writes them (golden JSON), valid against the schema, and split
/// into parts like ids: statistics and distinct rows are items, the extent a header field.
@Suite struct ContractTableEncodingTests {
    static let url = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"

    static func result(
        _ selection: LayerSelection, count: Int, aggregatedBy: ComputationSite? = nil, orderedBy: ComputationSite? = nil
    ) -> ResultMessage {
        let answer = ServiceLayerResult(
            url: url, layerId: 0, name: "Parcels", objectIdField: "OBJECTID", count: count, isComplete: true,
            selection: selection, aggregatedBy: aggregatedBy, orderedBy: orderedBy)
        return ResultMessage(
            requestId: "r", taskId: "t", layers: [ServiceLayerOutcome(url: url, result: .success(answer))], receivedAt: 0,
            finishedAt: 5, worker: "w")
    }

    /// The one layer entry of `result`'s message, as text.
    static func layerText(_ result: ResultMessage) throws -> String {
        let text = String(decoding: try result.encoded(), as: UTF8.self)
        let head = #""layers":["#
        guard let start = text.range(of: head)?.upperBound, text.hasSuffix("]}") else {
            throw ContractTestFailure("no layers in \(text)")
        }
        return String(text[start..<text.index(text.endIndex, offsetBy: -2)])
    }

    static let prefix = #"{"url":"\#(url)","layerId":0,"name":"Parcels","status":"succeeded","objectIdField":"OBJECTID","#

    static let statisticsRows = [
        StatisticsRow(
            group: [NamedValue("UseType", .string("Residential")), NamedValue("Built", .date(1_700_000_000_000))],
            values: [NamedValue("n", .integer(7)), NamedValue("mean", .double(2.5)), NamedValue("sd", .double(.nan)),
                     NamedValue("total", .double(1e300)), NamedValue("none", .null)]),
        StatisticsRow(group: [NamedValue("UseType", .null), NamedValue("Built", .null)], values: [NamedValue("n", .integer(1))]),
    ]

    @Test func statisticsRows() throws {
        let text = try Self.layerText(Self.result(.statistics(Self.statisticsRows), count: 8, aggregatedBy: .server, orderedBy: .worker))
        #expect(text == Self.prefix + #""count":8,"complete":true,"orderedBy":"worker","statisticsBy":"server","statistics":["#
            + #"{"group":{"UseType":"Residential","Built":1700000000000},"values":{"n":7,"mean":2.5,"sd":null,"total":1e+300,"none":null}},"#
            + #"{"group":{"UseType":null,"Built":null},"values":{"n":1}}]}"#)
    }

    @Test func statisticsWithoutGroups() throws {
        let rows = [StatisticsRow(group: [], values: [NamedValue("count_A", .integer(0))])]
        let text = try Self.layerText(Self.result(.statistics(rows), count: 0, aggregatedBy: .worker))
        #expect(text == Self.prefix + #""count":0,"complete":true,"statisticsBy":"worker","statistics":[{"group":{},"values":{"count_A":0}}]}"#)
    }

    @Test func anExtentAndAnEmptyOne() throws {
        let envelope = Envelope(xmin: 1, ymin: 2.5, xmax: 3, ymax: 4, spatialReference: SpatialReference(wkid: 102_100, latestWkid: 3857))
        #expect(try Self.layerText(Self.result(.extent(envelope), count: 3)) == Self.prefix
            + #""count":3,"complete":true,"extent":{"xmin":1,"ymin":2.5,"xmax":3,"ymax":4,"spatialReference":{"wkid":102100,"latestWkid":3857}}}"#)
        let bare = Envelope(xmin: -1, ymin: -2, xmax: 1, ymax: 2)
        #expect(try Self.layerText(Self.result(.extent(bare), count: 1)) == Self.prefix
            + #""count":1,"complete":true,"extent":{"xmin":-1,"ymin":-2,"xmax":1,"ymax":2}}"#)
        #expect(try Self.layerText(Self.result(.extent(nil), count: 0)) == Self.prefix + #""count":0,"complete":true,"extent":null}"#)
    }

    @Test func distinctRows() throws {
        let rows: [[NamedValue]] = [
            [NamedValue("A", .string("x \"quoted\"")), NamedValue("B", .null)],
            [NamedValue("A", .string("y")), NamedValue("B", .double(1.5))],
        ]
        #expect(try Self.layerText(Self.result(.distinct(rows), count: 40, aggregatedBy: .server)) == Self.prefix
            + #""count":40,"complete":true,"distinctBy":"server","distinct":[{"A":"x \"quoted\"","B":null},{"A":"y","B":1.5}]}"#)
    }

    @Test func orderedIds() throws {
        #expect(try Self.layerText(Self.result(.objectIds([3, 1, 2]), count: 3, orderedBy: .server)) == Self.prefix
            + #""count":3,"complete":true,"orderedBy":"server","objectIds":[3,1,2]}"#)
        #expect(try Self.layerText(Self.result(.objectIds([1, 2]), count: 2)) == Self.prefix + #""count":2,"complete":true,"objectIds":[1,2]}"#,
                "no orderedBy without an order")
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func whatTheEncoderWritesSatisfiesTheSchema() async throws {
        let results = [
            Self.result(.statistics(Self.statisticsRows), count: 8, aggregatedBy: .server, orderedBy: .worker),
            Self.result(.extent(Envelope(xmin: 1, ymin: 2, xmax: 3, ymax: 4, spatialReference: .wgs84)), count: 3),
            Self.result(.extent(nil), count: 0),
            Self.result(.distinct([[NamedValue("A", .date(5))]]), count: 1, aggregatedBy: .worker),
            Self.result(.objectIds([3, 1]), count: 2, orderedBy: .worker),
        ]
        let verdicts = try await ContractSupport.validate(try results.map { ("result", try $0.encoded()) })
        for verdict in verdicts { #expect(verdict.valid, "\(verdict.errors)") }
    }

    // MARK: Splitting

    static func manyStatistics(_ count: Int) -> [StatisticsRow] {
        (0..<count).map { index in
            StatisticsRow(
                group: [NamedValue("Group", .string("group \(index) " + String(repeating: "g", count: index % 40)))],
                values: [NamedValue("n", .integer(Int64(index))), NamedValue("mean", .double(Double(index) / 7))])
        }
    }

    static func manyDistinct(_ count: Int) -> [[NamedValue]] {
        (0..<count).map { [NamedValue("A", .integer(Int64($0))), NamedValue("B", .string(String(repeating: "b", count: $0 % 50)))] }
    }

    @Test(arguments: [100, 700, 2_000])
    func statisticsAndDistinctRowsSplitLikeIds(maxBytes: Int) throws {
        let layers = [
            ServiceLayerOutcome(url: Self.url + "1", result: .success(ServiceLayerResult(
                url: Self.url + "1", count: 900, isComplete: true, selection: .statistics(Self.manyStatistics(300)),
                aggregatedBy: .worker, orderedBy: .worker))),
            ServiceLayerOutcome(url: Self.url + "2", result: .success(ServiceLayerResult(
                url: Self.url + "2", count: 5, isComplete: true,
                selection: .extent(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1, spatialReference: .wgs84))))),
            ServiceLayerOutcome(url: Self.url + "3", result: .success(ServiceLayerResult(
                url: Self.url + "3", count: 900, isComplete: true, selection: .distinct(Self.manyDistinct(400)),
                aggregatedBy: .server))),
        ]
        let result = ResultMessage(requestId: "r", taskId: "t", layers: layers, receivedAt: 0, finishedAt: 1, worker: "w")
        let whole = try result.encoded()
        let limit = maxBytes * 10
        let parts = try result.split(maxBytes: limit)
        #expect(parts.count > 1, "\(whole.count) bytes in messages of \(limit)")
        for part in parts { #expect(part.count <= limit) }
        #expect(try ContractSplitTests.reassemble(parts) == (try ParsedJSON(parsing: whole)))
        // Every part's entry of a split layer carries its header fields.
        for part in parts {
            guard case .array(let entries)? = try ParsedJSON(parsing: part)["layers"] else { continue }
            for entry in entries where entry["statistics"] != nil {
                #expect(entry["statisticsBy"] == .string("worker") && entry["orderedBy"] == .string("worker"))
            }
            for entry in entries where entry["distinct"] != nil { #expect(entry["distinctBy"] == .string("server")) }
        }
    }

    @Test func aStatisticsRowLargerThanAMessageFailsTheResult() throws {
        let rows = [StatisticsRow(group: [NamedValue("G", .string(String(repeating: "x", count: 5_000)))], values: [])]
        do {
            _ = try Self.result(.statistics(rows), count: 1).split(maxBytes: 2_000)
            Issue.record("a 5 KB row fit in 2 KB")
        } catch {
            #expect(error.code == .resultTooLarge)
            #expect(error.details?["layer"] == .string(Self.url))
        }
    }
}
