import ChildProcessFixture
import Foundation
import Kafka
import QueryWorker
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The contract's Python integration example (docs/contract/python/feature_query_client.py: aiokafka and the
/// JSON Schemas, no code of ours) run against a worker: where integrators in other languages start, so it must
/// keep working. It publishes a count, awaits a result split into parts and reassembles it, is refused by the
/// schemas before publishing, and cancels a task whose layer is held.
@Suite("The contract's Python integration example against a worker", .enabled(if: ContractSupport.schemaTestsEnabled))
struct PythonIntegrationExampleTests {
    @Test("publish, await, reassemble, refuse, cancel: every step of the walk-through passes")
    func walkThrough() async throws {
        let python = try #require(ContractSupport.python, "no Python: run scripts/setup-deps test, or set QUERY_WORKER_PYTHON")
        let harness = try await WorkerHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "USA/MapServer/0/query")],
            configure: { settings in settings.limits.maxResultBytes = 16_384 })
        let script = ContractSupport.contractDirectory.appendingPathComponent("python/feature_query_client.py").path
        let output: String
        do {
            output = try await ChildProcesses.run(
                [python, script, "--bootstrap", harness.cluster.bootstrapServers, "--layer", harness.url(.parcels),
                 "--slow-layer", harness.url(.cities), "--requests-topic", harness.settings.topics.requests,
                 "--results-topic", harness.settings.topics.results, "--errors-topic", harness.settings.topics.errors],
                timeout: .seconds(120))
        } catch {
            try await harness.stop()
            throw error
        }
        try await harness.stop()
        let lines = output.split(separator: "\n")
        #expect(lines.count == 5, "each of the five checks printed its line: \(output)")
        #expect(lines.allSatisfy { $0.hasPrefix("OK ") }, "\(output)")
        #expect(output.contains("reassembled from") && output.contains("cancel: the task's request answered cancelled"))
    }
}
