import ArcGISEngine
import BenchmarkSupport
import CurlHTTP
import Logging

/// The raw engine's side of `throughput`, for information: the same ids queries through `ArcGISEngine`
/// in this process, `concurrency` at a time, no Kafka and no worker. Between the worker and wrk, it shows
/// how much of the worker's cost is the engine's (HTTP, decoding) and how much the worker's own (Kafka,
/// contract, bookkeeping).
struct EngineThroughputRun {
    /// What a run measured.
    struct Figures {
        var requestsPerSecond: Double
        /// This process's CPU time per query, in milliseconds.
        var cpuMilliseconds: Double
    }

    let layerURL: String
    let specs: [QuerySpec]
    let concurrency: Int
    let skip: Int
    let logger: Logger

    func run() async throws -> Figures {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let engine = ArcGISEngine(httpClient: client, logger: logger)
        let queries = try specs.map(RequestFactory.featureQuery)
        var window: (start: ContinuousClock.Instant, cpu: Double)?
        var failures = 0
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var finished = 0
            func add() {
                let query = queries[next]
                next += 1
                group.addTask {
                    // `query(layer:)`, not `query(_ targets:)` as the worker's executor calls it: built with
                    // Swift 6.3.1 -O, the latter's task-group closures crash under concurrency (see the report).
                    do {
                        _ = try await engine.query(layer: layerURL, query)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            while next < min(concurrency, queries.count) { add() }
            while let succeeded = await group.next() {
                finished += 1
                if !succeeded { failures += 1 }
                if finished == skip { window = (ContinuousClock.now, ProcessStats.ownCPUSeconds()) }
                if next < queries.count { add() }
            }
        }
        let end = (ContinuousClock.now, ProcessStats.ownCPUSeconds())
        await client.shutdown()
        guard failures == 0 else { throw BenchmarkError("\(failures) of \(queries.count) engine queries failed") }
        guard let window else { throw BenchmarkError("fewer queries than --skip") }
        let counted = Double(queries.count - skip)
        return Figures(
            requestsPerSecond: counted / (end.0 - window.start).seconds, cpuMilliseconds: (end.1 - window.cpu) * 1e3 / counted)
    }
}
