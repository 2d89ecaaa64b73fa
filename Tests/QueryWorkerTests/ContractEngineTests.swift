import ArcGISEngine
import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import Logging
import SampleFeatureServer
import Testing
import WorkerTestSupport

@testable import QueryWorker
@testable import RequestContract

/// The contract end to end against the sample feature server: a request message decoded, run by the ArcGIS
/// engine, and its result (real GeoJSON pages, a failed layer) encoded, split, validated and put back
/// together.
@Suite struct ContractEngineTests {
    static let logger: Logger = {
        var logger = Logger(label: "contract-engine-tests")
        logger.logLevel = .warning
        return logger
    }()

    @Test func aDecodedRequestRunsAndItsResultSatisfiesTheSchema() async throws {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 7), logger: Self.logger)
        let client: HTTPClient
        do {
            client = try HTTPClient(logger: Self.logger)
        } catch {
            await server.shutdown()
            throw error
        }
        do {
            try await Self.check(server: server, engine: ArcGISEngine(httpClient: client, logger: Self.logger))
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
    }

    static func check(server: SampleFeatureServer, engine: ArcGISEngine) async throws {
        let value = Array("""
            {"requestId":"e2e-1","taskId":"e2e","timeoutMs":60000,
             "targets":[{"type":"arcgis","url":"\(server.layerURL(.parcels))"},
                        {"type":"arcgis","url":"\(server.serviceURL(.usa))","layers":[0]}],
             "query":{"namedWhere":"residential","extent":{"xmin":-118.84,"ymin":34.01,"xmax":-118.77,"ymax":34.05},
                      "outFields":["UseType","Roll_LandValue"],"returnGeometry":true,"result":"features"}}
            """.utf8)
        let receivedAt: Int64 = 1_748_779_200_000
        guard case .query(let request) = try ContractSupport.decoder().decode(value, key: Array("e2e".utf8), receivedAt: receivedAt)
        else {
            Issue.record("the request was not accepted")
            return
        }
        let outcomes = await engine.query(request.serviceTargets, request.query.serviceQuery, budget: .unlimited())
        let layers = Array(outcomes.joined())
        let result = ResultMessage(
            requestId: request.requestId, taskId: request.taskId, layers: layers, receivedAt: request.receivedAt,
            finishedAt: receivedAt + 250, worker: "test-worker")
        #expect(result.status == .partial, "the cities layer has no UseType field")
        guard case .succeeded(let count, true, .features(let features)) = layers.first?.outcome else {
            Issue.record("the parcels layer did not succeed: \(String(describing: layers.first?.outcome))")
            return
        }
        #expect(count == features.count && count > 20)
        guard case .failed(let error) = layers.last?.outcome else {
            Issue.record("the cities layer did not fail")
            return
        }
        #expect(error.code.rawValue == "invalid_query")

        let whole = try result.encoded()
        let parts = try result.split(maxBytes: 16_384)
        #expect(parts.count > 1, "\(whole.count) bytes should not fit in 16 KiB")
        #expect(try ContractSplitTests.reassemble(parts) == (try ParsedJSON(parsing: whole)))
        if ContractSupport.schemaTestsEnabled {
            let verdicts = try await ContractSupport.validate([("result", whole)] + parts.map { ("result", $0) })
            for verdict in verdicts { #expect(verdict.valid, "\(verdict.errors)") }
        }
    }
}
