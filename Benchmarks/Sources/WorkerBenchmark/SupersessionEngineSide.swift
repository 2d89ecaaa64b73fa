import ArcGISEngine
import BenchmarkSupport
import CurlHTTP
import Logging
import SampleFeatureServer

/// The peer of `supersession`: the same cancellation done directly on the engine, in this process. A task
/// runs `ArcGISEngine.query` for one ids query (what the worker's run does); once the server has seen its
/// two query requests the task is cancelled, and the sample is from `Task.cancel()` to the server seeing
/// both transfers aborted. What the worker adds on top of this is its own overhead: reading the message,
/// deciding the supersession, cancelling the run's task.
struct SupersessionEngineSide {
    let server: SampleFeatureServer
    let logger: Logger

    func run(count: Int, seed: UInt64) async throws -> [CancelSample] {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let engine = ArcGISEngine(httpClient: client, logger: logger)
        let layer = server.layerURL(.parcels)
        let specs = RequestFactory.specs(count: count, seed: seed)
        var watch = ServerWatch(server)
        var samples: [CancelSample] = []
        do {
            for spec in specs {
                let query = try RequestFactory.featureQuery(spec)
                let task = Task { _ = try? await engine.query(layer: layer, query) }
                let sequences = try await watch.nextQueries(2)
                let start = ContinuousClock.now
                task.cancel()
                let aborts = try await watch.aborts(sequences)
                await task.value
                guard let first = aborts.min(), let last = aborts.max() else { throw BenchmarkError("no abort times") }
                samples.append(CancelSample(start: start, firstAbort: first, lastAbort: last))
            }
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
        return samples
    }
}
