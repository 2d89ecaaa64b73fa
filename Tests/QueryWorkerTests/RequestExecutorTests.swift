import ArcGISEngine
import CurlHTTP
import EngineExecution
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import Logging
import QueryLanguage
import SampleFeatureServer
import Testing
@testable import RequestContract

@testable import QueryWorker

/// ``RequestExecutor`` against the real sample feature server over loopback: results, partial results,
/// failures, host refusals before any request, deadlines and cancellation.
@Suite struct RequestExecutorTests {
    @Test func anIdsRequestSucceedsWithTheGroundTruth() async throws {
        let clause = try #require(NamedQueryCatalog.builtInExamples.first).clause
        let truth = try ExecutorTestSupport.dataset().groundTruthObjectIDs(
            .parcels, where: clause, envelope: SampleDataset.seedExtent)
        #expect(!truth.isEmpty)
        try await ExecutorTestSupport.withExecutor { server, executor in
            let request = ExecutorTestSupport.request(
                [.arcgis(url: server.layerURL(.parcels), layers: nil)],
                QuerySpec(filter: .clause(try WhereClause(clause)), extent: SampleDataset.seedExtent))
            #expect(executor.admit(request) == nil)
            let before = ExecutorTestSupport.now()
            guard case .result(let result) = await executor.execute(request) else {
                Issue.record("the request did not produce a result")
                return
            }
            #expect(result.status == .succeeded)
            #expect(result.requestId == "req-1" && result.taskId == "task-1")
            #expect(result.receivedAt == request.receivedAt && result.finishedAt >= before)
            #expect(result.worker == "worker-test")
            #expect(result.layers.count == 1)
            guard case .succeeded(let count, true, .objectIds(let ids)) = result.layers.first?.outcome else {
                Issue.record("the parcels layer did not succeed: \(String(describing: result.layers.first?.outcome))")
                return
            }
            #expect(ids.map { Int($0) } == truth)
            #expect(count == truth.count)

            var joined = request
            joined.requestId = "req-2"
            joined.receivedAt += 5
            let readdressed = result.addressed(to: joined)
            #expect(readdressed.requestId == "req-2" && readdressed.receivedAt == joined.receivedAt)
            #expect(readdressed.finishedAt == result.finishedAt && readdressed.layers.count == 1)
        }
    }

    @Test func oneFailingSublayerMakesAPartialResult() async throws {
        try await ExecutorTestSupport.withExecutor(
            faults: [FaultRule(.http500, pathContains: "USA/MapServer/2/query")]
        ) { server, executor in
            let request = ExecutorTestSupport.request([.arcgis(url: server.serviceURL(.usa), layers: [0, 2])], QuerySpec())
            guard case .result(let result) = await executor.execute(request) else {
                Issue.record("the request did not produce a result")
                return
            }
            #expect(result.status == .partial)
            #expect(result.layers.map(\.url) == [server.layerURL(.cities), server.layerURL(.states)])
            guard case .succeeded = result.layers.first?.outcome else {
                Issue.record("the cities layer should have succeeded")
                return
            }
            guard case .failed(let error) = result.layers.last?.outcome else {
                Issue.record("the states layer should have failed")
                return
            }
            #expect(error.code.rawValue == "http_status")
            #expect(error.retryable)
        }
    }

    @Test func everyLayerFailingIsAFailureWithTheServicesCode() async throws {
        try await ExecutorTestSupport.withExecutor(faults: [FaultRule(.arcgisError, pathContains: "/query")]) { server, executor in
            let request = ExecutorTestSupport.request([.arcgis(url: server.serviceURL(.usa), layers: [0, 2])], QuerySpec())
            guard case .failed(let error) = await executor.execute(request) else {
                Issue.record("the request should have failed")
                return
            }
            #expect(error.code != .layersFailed, "both layers fail the same way, so their code is the request's")
            #expect(error.code.rawValue == "service_error", "\(error)")
            guard case .object(let details)? = error.details, case .array(let layers)? = details["layers"] else {
                Issue.record("details.layers is missing: \(error)")
                return
            }
            #expect(layers.count == 2)
            #expect(server.statistics.faults(.arcgisError) >= 2)
        }
    }

    @Test func aHostOutsideThePolicyIsRejectedBeforeAnyRequest() async throws {
        let policy = try HostPolicy(allowedHosts: ["services.arcgis.com"])
        try await ExecutorTestSupport.withExecutor(hostPolicy: policy) { server, executor in
            let request = ExecutorTestSupport.request(
                [.arcgis(url: "https://services.arcgis.com/x/FeatureServer/0", layers: nil),
                 .arcgis(url: server.layerURL(.parcels), layers: nil)],
                QuerySpec())
            let error = try #require(executor.admit(request))
            #expect(error.code.rawValue == "host_not_allowed")
            #expect(!error.retryable)
            #expect(error.message.hasPrefix("targets[1].url"))

            let invalid = ExecutorTestSupport.request([.arcgis(url: "ftp://services.arcgis.com/x/0", layers: nil)], QuerySpec())
            #expect(executor.admit(invalid)?.code == .invalidURL)
            #expect(server.statistics.requests == 0)
        }
    }

    /// `delivery: store` on a worker without a result store is refused before anything runs, naming the setting;
    /// `auto` (the default) runs inline there.
    @Test func storeDeliveryWithoutAStoreIsRefusedBeforeAnyRequest() async throws {
        try await ExecutorTestSupport.withExecutor { server, executor in
            var request = ExecutorTestSupport.request([.arcgis(url: server.layerURL(.parcels), layers: nil)], QuerySpec())
            request.delivery = ResultDelivery(mode: .store, format: .ndjson, compression: .gzip)
            let error = try #require(executor.admit(request))
            #expect(error.code == .storeNotConfigured && error.code.rawValue == "store_not_configured")
            #expect(!error.retryable)
            #expect(error.message.contains("resultStore"))
            #expect(server.statistics.requests == 0)
            request.delivery = ResultDelivery(mode: .auto)
            #expect(executor.admit(request) == nil)
            guard case .result(let result) = await executor.execute(request) else {
                Issue.record("auto without a store did not run inline")
                return
            }
            #expect(result.layers.count == 1 && result.status == .succeeded)
        }
    }

    /// The executor checks a deadline on arrival only: a run whose deadline passes later is ended by the
    /// worker's deadline loop cancelling it (``cancellingTheCallerEndsTheRunAsCancelled()``).
    @Test func aRunPastItsDeadlineOnArrivalExpiresWithoutARequest() async throws {
        try await ExecutorTestSupport.withExecutor { server, executor in
            let past = ExecutorTestSupport.request(
                [.arcgis(url: server.layerURL(.parcels), layers: nil)], QuerySpec(), deadline: ExecutorTestSupport.now() - 1)
            guard case .expired = await executor.execute(past) else {
                Issue.record("a request past its deadline should expire at once")
                return
            }
            #expect(server.statistics.requests == 0, "nothing is sent for a request already past its deadline")
        }
    }

    @Test func cancellingTheCallerEndsTheRunAsCancelled() async throws {
        try await ExecutorTestSupport.withExecutor(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")]
        ) { server, executor in
            let request = ExecutorTestSupport.request(
                [.arcgis(url: server.layerURL(.parcels), layers: nil)], QuerySpec(),
                deadline: ExecutorTestSupport.now() + 120_000)
            let task = Task { await executor.execute(request) }
            #expect(await server.waitUntil { !$0.recentQueries(.parcels).isEmpty })
            let cancelled = ContinuousClock.now
            task.cancel()
            guard case .cancelled = await task.value else {
                Issue.record("a cancelled run should end as cancelled")
                return
            }
            #expect(ContinuousClock.now - cancelled < .seconds(20))
            #expect(await server.waitUntil(timeout: .seconds(5)) { $0.aborted >= 1 })
        }
    }
}

/// Starts the sample feature server and an executor for one test (the pattern of the engine tests' support,
/// which test targets can't share).
private enum ExecutorTestSupport {
    static let parcelCount = 20_000

    static let logger: Logger = {
        var logger = Logger(label: "request-executor-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// One dataset for the whole process: generating it is the slow part of starting a server.
    static func dataset() throws -> SampleDataset {
        try SampleDataset.shared(parcelCount: parcelCount, seed: 7)
    }

    /// Two quick attempts, so fault tests do not wait on production backoff.
    static let fastRetries = RetrySchedule(
        maxAttempts: 2, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), maxRetryAfter: .seconds(1))

    static func now() -> Int64 { WallClock.nowMilliseconds() }

    static func request(_ targets: [QueryTarget], _ query: QuerySpec, deadline: Int64? = nil) -> QueryRequest {
        QueryRequest(
            requestId: "req-1", taskId: "task-1", deadline: deadline, receivedAt: now(), targets: targets, query: query)
    }

    static func withExecutor(
        faults: [FaultRule] = [], hostPolicy: HostPolicy? = nil,
        _ body: (SampleFeatureServer, RequestExecutor) async throws -> Void
    ) async throws {
        let policy = try hostPolicy ?? HostPolicy(allowedHosts: ["127.0.0.1"])
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: parcelCount, seed: 7, faults: faults),
            dataset: try dataset(), logger: logger)
        let client: HTTPClient
        do {
            client = try HTTPClient(logger: logger)
        } catch {
            await server.shutdown()
            throw error
        }
        let engine = ArcGISEngine(
            httpClient: client, configuration: ArcGISEngineConfiguration(retry: fastRetries), logger: logger)
        let executor = RequestExecutor(engine: engine, hostPolicy: policy, workerID: "worker-test", clock: { now() })
        do {
            try await body(server, executor)
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
    }
}
