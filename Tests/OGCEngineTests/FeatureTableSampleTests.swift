import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// Feature-table results against the sample server's OGC face, each compared with what the test computes
/// itself from the collection's features fetched raw (every feature, its id and properties).
@Suite("OGC feature-table queries against the sample server")
struct FeatureTableSampleTests {
    @Test func groupedStatisticsAreWhatTheFeaturesGive() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let features = try await Self.raw(engine, landing, "USA_Cities")
            #expect(features.count > 20)
            var groups: [String: [Double]] = [:]
            for feature in features {
                guard let state = feature.properties["ST"]?.stringValue else { continue }
                let values = groups[state, default: []]
                groups[state] = values + (feature.properties["POP2000"]?.numberValue.map { [$0] } ?? [])
            }
            let statistics = [
                StatisticDefinition(type: .count, field: "POP2000", name: "n"),
                StatisticDefinition(type: .sum, field: "POP2000", name: "total"),
                StatisticDefinition(type: .avg, field: "POP2000", name: "mean"),
                StatisticDefinition(type: .min, field: "POP2000", name: "low"),
                StatisticDefinition(type: .max, field: "POP2000", name: "high"),
                StatisticDefinition(type: .stddev, field: "POP2000", name: "sd"),
                StatisticDefinition(type: .var, field: "POP2000", name: "variance"),
                StatisticDefinition(type: .percentileCont, field: "POP2000", name: "median", percentile: 0.5),
                StatisticDefinition(type: .percentileDisc, field: "POP2000", name: "p90", percentile: 0.9),
            ]
            let query = ServiceQuery(
                result: .statistics, orderBy: [OrderTerm(field: "ST", descending: true)], statistics: statistics, groupBy: ["ST"])
            let outcome = await SampleServerInteropTests.run(engine, landing, query, collection: "USA_Cities")
            let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
            #expect(result.aggregatedBy == .worker && result.orderedBy == .worker)
            #expect(result.count == features.count && result.isComplete)
            guard case .statistics(let rows) = result.selection else {
                Issue.record("statistics rows expected")
                return
            }
            #expect(rows.count == groups.count)
            let states = rows.compactMap { row -> String? in
                if case .string(let state)? = row.group.first?.value { return state }
                return nil
            }
            #expect(states == groups.keys.sorted(by: >))
            for row in rows {
                guard case .string(let state)? = row.group.first?.value, let values = groups[state] else {
                    Issue.record("a row for an unknown group: \(row.group)")
                    continue
                }
                let sorted = values.sorted()
                let n = Double(values.count)
                let mean = values.reduce(0, +) / n
                let variance: Double? = values.count > 1 ? values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1) : nil
                let position = 0.5 * (n - 1)
                let lower = sorted[Int(position.rounded(.down))], upper = sorted[Int(position.rounded(.up))]
                let median = lower + (upper - lower) * (position - position.rounded(.down))
                let p90 = sorted[max(0, Int((0.9 * n).rounded(.up)) - 1)]
                let expected: [String: Double?] = [
                    "n": n, "total": values.reduce(0, +), "mean": mean, "low": sorted.first, "high": sorted.last,
                    "sd": variance.map { $0.squareRoot() }, "variance": variance, "median": median, "p90": p90,
                ]
                for (name, value) in expected {
                    let actual = Self.number(row.values.first { $0.name == name }?.value)
                    #expect(Self.close(actual, value), "\(state) \(name): \(String(describing: actual)) ≠ \(String(describing: value))")
                }
            }
        }
    }

    @Test func distinctValuesAreTheFeaturesCombinations() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let features = try await Self.raw(engine, landing, "USA_Cities")
            let states = Set(features.compactMap { $0.properties["ST"]?.stringValue })
            let outcome = await SampleServerInteropTests.run(
                engine, landing, ServiceQuery(outFields: ["ST"], result: .distinct), collection: "USA_Cities")
            let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
            guard case .distinct(let rows) = result.selection else {
                Issue.record("distinct rows expected")
                return
            }
            let values = rows.compactMap { row -> String? in
                if case .string(let state)? = row.first?.value { return state }
                return nil
            }
            #expect(values == states.sorted())
            #expect(result.aggregatedBy == .worker && result.orderedBy == nil)
            #expect(result.count == features.count)
        }
    }

    @Test func theExtentIsTheUnionOfTheFeaturesBoxes() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let features = try await Self.raw(engine, landing, "USA_States")
            let boxes = features.compactMap(\.box)
            let expected = try #require(boxes.first.map { first in
                boxes.reduce(first) { [min($0[0], $1[0]), min($0[1], $1[1]), max($0[2], $1[2]), max($0[3], $1[3])] }
            })
            let name = try #require(features.first?.properties["STATE_NAME"]?.stringValue)
            let clause = try WhereClause("STATE_NAME = '\(name)' OR POP2000 > 15000000")
            let outcome = await SampleServerInteropTests.run(engine, landing, ServiceQuery(result: .extent))
            let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
            guard case .extent(let extent?) = result.selection else {
                Issue.record("an extent expected")
                return
            }
            #expect([extent.xmin, extent.ymin, extent.xmax, extent.ymax] == expected)
            #expect(result.count == features.count && result.aggregatedBy == .worker)
            // Filtered: the box of the features the clause selects, counted by them.
            let big = features.filter {
                ($0.properties["POP2000"]?.numberValue ?? 0) > 15_000_000 || $0.properties["STATE_NAME"]?.stringValue == name
            }.compactMap(\.box)
            let filtered = await SampleServerInteropTests.run(engine, landing, ServiceQuery(whereClause: clause, result: .extent))
            let filteredResult = try #require(filtered.success, "\(String(describing: filtered.failure))")
            #expect(filteredResult.count == big.count)
            let bigUnion = big.first.map { first in
                big.reduce(first) { [min($0[0], $1[0]), min($0[1], $1[1]), max($0[2], $1[2]), max($0[3], $1[3])] }
            }
            if case .extent(let box?) = filteredResult.selection {
                #expect([box.xmin, box.ymin, box.xmax, box.ymax] == bigUnion)
                #expect(big.count < features.count)
            } else {
                Issue.record("a filtered extent expected")
            }
        }
    }

    @Test func orderedIdsAreTheExactFirstNNotTheFirstPages() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let features = try await Self.raw(engine, landing, "USA_States")
            // The test's own full sort: population descending, ties by id ascending.
            let expected = features.sorted { a, b in
                let x = a.properties["POP2000"]?.numberValue ?? -1, y = b.properties["POP2000"]?.numberValue ?? -1
                if x != y { return x > y }
                return OrderedFeatureIDKey(a.id) < OrderedFeatureIDKey(b.id)
            }.prefix(7).map(\.id)
            let query = ServiceQuery(maxFeatures: 7, result: .ids, orderBy: [OrderTerm(field: "POP2000", descending: true)])
            let outcome = await SampleServerInteropTests.run(engine, landing, query)
            let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
            #expect(result.featureIds == expected)
            // The sample server declares sorting (Part 8): its order, checked as it arrives.
            #expect(result.orderedBy == .server)
            #expect(result.count == features.count && !result.isComplete && result.incompleteReason == .maxFeatures)
            // A server that does not declare sorting and ignores `sortby`: the worker orders, the same ids.
            let ignoring = server.ogcURL(quirks: ["sortby-ignored"])
            let sorted = try #require(await SampleServerInteropTests.run(engine, ignoring, query).success)
            #expect(sorted.featureIds == expected)
            #expect(sorted.orderedBy == .worker)
            // Features in the same order, with their GeoJSON.
            let featuresQuery = ServiceQuery(
                outFields: ["STATE_NAME", "POP2000"], maxFeatures: 3, result: .features,
                orderBy: [OrderTerm(field: "POP2000", descending: true)])
            let ordered = try #require(await SampleServerInteropTests.run(engine, landing, featuresQuery).success)
            #expect(ordered.featureIds == Array(expected.prefix(3)))
            if case .features(let list) = ordered.selection {
                let first = try ParsedJSON(reading: try #require(list.json.first))
                #expect(first["properties"]?["STATE_NAME"]?.stringValue != nil && first["properties"]?["STATE_ABBR"] == nil)
            }
        }
    }

    @Test func objectIdsSelectOnlyThoseTypedIds() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let all = try #require(await SampleServerInteropTests.run(engine, landing, ServiceQuery(result: .ids)).success).featureIds
            let wanted = all.compactMap { $0 }.enumerated().filter { $0.offset % 10 == 3 }.map(\.element)
            #expect(wanted.count >= 3)
            let outcome = await SampleServerInteropTests.run(engine, landing, ServiceQuery(result: .ids, objectIds: wanted + [.integer(999_999)]))
            let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
            #expect(Set(result.featureIds) == Set(wanted.map(Optional.some)))
            #expect(result.count == wanted.count && result.filteredBy == .client)
            // The same ids as strings are other ids.
            let strings = wanted.compactMap { id -> FeatureID? in if case .integer(let n) = id { .string(String(n)) } else { nil } }
            let none = try #require(await SampleServerInteropTests.run(engine, landing, ServiceQuery(result: .count, objectIds: strings)).success)
            #expect(none.count == 0)
        }
    }

    @Test func aTimeWindowSelectsByTheCollectionsTemporalProperty() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            func count(_ window: TimeWindow?) async throws -> ServiceLayerResult {
                let outcome = await SampleServerInteropTests.run(
                    engine, landing, ServiceQuery(result: .count, time: window), collection: "TransportationGroundCrv")
                return try #require(outcome.success, "\(String(describing: outcome.failure))")
            }
            let middle: Int64 = 1_546_300_800_000  // 2019-01-01T00:00:00Z, inside the collection's 2014–2023.
            let whole = try await count(nil)
            let before = try await count(TimeWindow(start: nil, end: middle))
            let after = try await count(TimeWindow(start: middle + 1, end: nil))
            #expect(before.count > 0 && after.count > 0)
            // Millisecond instants: the two open windows split the collection (nulls are in neither).
            #expect(before.count + after.count <= whole.count && before.count < whole.count && after.count < whole.count)
            #expect(before.filteredBy == .server && whole.filteredBy == nil)
        }
    }

    @Test func aTimeWindowOnACollectionWithoutTemporalExtentIsInvalid() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let query = ServiceQuery(result: .count, time: TimeWindow(start: 0, end: 1_000_000_000_000))
            let outcome = await SampleServerInteropTests.run(engine, server.ogcURL(quirks: []), query)
            let error = try #require(outcome.failure)
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("temporal extent"))
        }
    }
}
