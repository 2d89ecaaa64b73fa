import EngineExecution
import FeatureGeometry
import FeatureService
import QueryLanguage
import Testing

/// SELECT DISTINCT over fields (null is a value, 1 = 1.0) and ST_Extent with a count of every feature.
@Suite("DistinctRows and ExtentAccumulator")
struct DistinctAndExtentTests {
    @Test func distinctKeepsOneNullAndMergesEqualNumbers() throws {
        var distinct = try DistinctRows(fields: ["a", "b"], layer: "L")
        let records: [[AttributeValue]] = [
            [.integer(1), .string("x")], [.double(1.0), .string("x")], [.null, .string("x")], [.null, .string("x")],
            [.integer(1), .null], [.integer(0), .string("y")], [.integer(1)],
        ]
        for record in records { distinct.add(record) }
        #expect(distinct.count == 4)
        let rows = try distinct.rows(orderBy: [])
        #expect(rows.map { $0.map(\.value) } == [
            [.integer(0), .string("y")], [.integer(1), .string("x")], [.integer(1), .null], [.null, .string("x")],
        ])
        #expect(rows.first?.map(\.name) == ["a", "b"])
        let byB = try distinct.rows(orderBy: [OrderTerm(field: "b", descending: true)])
        #expect(byB.map { $0.map(\.value) } == [
            [.integer(1), .null], [.integer(0), .string("y")], [.integer(1), .string("x")], [.null, .string("x")],
        ])
    }

    @Test func distinctRefusesWhatNamesNoField() throws {
        #expect(throws: FeatureServiceError.self) { try DistinctRows(fields: [], layer: "L") }
        #expect(throws: FeatureServiceError.self) { try DistinctRows(fields: ["*"], layer: "L") }
        #expect(throws: FeatureServiceError.self) { try DistinctRows(fields: ["a", "a"], layer: "L") }
        let distinct = try DistinctRows(fields: ["a"], layer: "L")
        let error = #expect(throws: FeatureServiceError.self) { try distinct.rows(orderBy: [OrderTerm(field: "b")]) }
        #expect(error?.code == .invalidQuery)
    }

    @Test func extentCoversGeometriesAndCountsEveryFeature() {
        var extent = ExtentAccumulator(spatialReference: .wgs84)
        #expect(extent.extent == nil)
        extent.add(geometry: nil)
        #expect(extent.extent == nil)
        #expect(extent.featureCount == 1)
        extent.add(Position(x: 2, y: 3))
        extent.add(Envelope(xmin: -1, ymin: 5, xmax: 0, ymax: 9))
        extent.add(geometry: .point(Point(x: 4, y: -2)))
        extent.add(Envelope(xmin: .nan, ymin: 0, xmax: 100, ymax: 0))
        #expect(extent.featureCount == 5)
        #expect(extent.extent == Envelope(xmin: -1, ymin: -2, xmax: 4, ymax: 9, spatialReference: .wgs84))
    }
}
