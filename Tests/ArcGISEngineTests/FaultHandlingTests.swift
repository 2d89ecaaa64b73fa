import ArcGISEngine
import FeatureGeometry
import QueryLanguage
import SampleFeatureServer
import Testing
import FeatureService

@Suite("Retries, errors and cancellation against the sample server's fault knobs")
struct FaultHandlingTests {
    static let transient: [(FaultRule.Kind, FaultKind)] = [
        (.http500, .http500), (.http503(retryAfterSeconds: 1), .http503), (.http429(retryAfterSeconds: 1), .http429),
        (.truncatedBody, .truncatedBody), (.arcgisError, .arcgisError),
    ]

    @Test(arguments: 0..<transient.count)
    func transientFaultsAreRetriedUntilTheyPass(_ index: Int) async throws {
        let (kind, name) = Self.transient[index]
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        try await ArcGISTestSupport.withEngine(
            faults: [FaultRule(kind, pathContains: "MapServer/2/query", trigger: .first(2))]
        ) { server, engine in
            let started = ContinuousClock.now
            let result = try await engine.query(
                layer: server.layerURL(.states), ServiceQuery(whereClause: try WhereClause("POP2000 > 1000000")))
            #expect(ArcGISTestSupport.ids(result) == truth)
            #expect(server.statistics.faults(name) == 2)
            #expect(result.retries == 2)
            if case .http503 = kind {
                #expect(ContinuousClock.now - started >= .seconds(1), "Retry-After must be honoured")
            }
        }
    }

    @Test func aFaultThatNeverPassesFailsWithTheLastErrorAfterEveryAttempt() async throws {
        try await ArcGISTestSupport.withEngine(faults: [FaultRule(.http500, pathContains: "/query")]) { server, engine in
            do {
                _ = try await engine.query(layer: server.layerURL(.cities), ServiceQuery())
                Issue.record("the query should have failed")
            } catch let error as FeatureServiceError {
                #expect(error.code == .httpStatus)
                #expect(error.httpStatus == 500)
                #expect(error.isRetryable)
                #expect(error.layer == server.layerURL(.cities))
            }
            #expect(server.statistics.faults(.http500) >= 4)
        }
    }

    @Test func anHTMLPageIsAMalformedResponseNamingTheLayer() async throws {
        try await ArcGISTestSupport.withEngine(faults: [FaultRule(.htmlPage(status: 200))]) { server, engine in
            do {
                _ = try await engine.query(layer: server.layerURL(.cities), ServiceQuery())
                Issue.record("the query should have failed")
            } catch let error as FeatureServiceError {
                #expect(error.code == .malformedResponse)
                #expect(!error.isRetryable)
                #expect(error.message.contains(server.layerURL(.cities)))
            }
        }
    }

    @Test func cancellingAQueryAbortsItsTransfersAtOnce() async throws {
        try await ArcGISTestSupport.withEngine(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")]
        ) { server, engine in
            let url = server.layerURL(.parcels)
            let task = Task { try await engine.query(layer: url, ServiceQuery(result: .features)) }
            // Generous waits: on a loaded machine the first request can take many seconds to reach the server.
            #expect(await server.waitUntil(timeout: .seconds(60)) { !$0.recentQueries(.parcels).isEmpty })
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelled < .seconds(20), "the query must end without waiting for the 60 s answers")
            #expect(throws: FeatureServiceError.self) { try result.get() }
            if case .failure(let error as FeatureServiceError) = result { #expect(error.code == .cancelled) }
            #expect(await server.waitUntil(timeout: .seconds(30)) { $0.aborted >= 1 })
        }
    }

    @Test func aCancelledFanOutEndsEveryLayer() async throws {
        try await ArcGISTestSupport.withEngine(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")]
        ) { server, engine in
            let target = ArcGISTarget(url: server.serviceURL(.usa), layers: [0, 1, 2, 3])
            let task = Task { await engine.query([target], ServiceQuery()) }
            #expect(await server.waitUntil { stats in [SampleLayer.cities, .highways, .states, .counties].allSatisfy { !stats.recentQueries($0).isEmpty } })
            task.cancel()
            let outcomes = await task.value
            #expect(outcomes.count == 4)
            #expect(outcomes.allSatisfy { $0.failure?.code == .cancelled })
            #expect(await server.waitUntil { $0.aborted >= 4 })
        }
    }
}
