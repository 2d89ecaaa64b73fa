import Synchronization

// Swift 6.3.1 -O miscompile: a child task of a task group returns `(index, X(.success(try await ...)))` from
// inside a do/catch, and the index that comes out of the group is wrong in -O builds (ArcGISEngine.queryLayers
// keeps the workaround form, `queryLayersOutcomeFirst` below). See README.md in this directory for the commands.
/// Shaped like ArcGISError: several strings, optionals and an array (a large typed error).
struct Failure: Error, Sendable {
    var code = "transport"
    var message = "the query failed"
    let layer: String
    var isRetryable = false
    var httpStatus: Int? = nil
    var serviceCode: Int? = nil
    var details: [String] = []
    var retryAfter: Duration? = nil
}

/// Shaped like LayerQueryResult: a few fields and arrays.
struct Payload: Sendable {
    var count: Int
    var ids: [Int64]
    var name: String
    var complete: Bool
    var objectIdField: String
}

struct Outcome: Sendable {
    let url: String
    let result: Result<Payload, Failure>
}

final class Engine: Sendable {
    @inline(never)
    func fetch(_ layer: String, _ n: Int) async throws(Failure) -> Payload {
        await Task.yield()
        if n % 7 == 3 { throw Failure(layer: layer) }
        return Payload(count: n, ids: [Int64(n)], name: layer, complete: true, objectIdField: "OBJECTID")
    }

    /// The form the workaround avoids: the tuple built around the awaited call inside do/catch.
    func queryLayersTupleAroundCall(_ layers: [String]) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, layer) in layers.enumerated() {
                group.addTask {
                    do throws(Failure) {
                        return (index, Outcome(url: layer, result: .success(try await self.fetch(layer, index))))
                    } catch {
                        return (index, Outcome(url: layer, result: .failure(error)))
                    }
                }
            }
            var outcomes = [Outcome?](repeating: nil, count: layers.count)
            for await (index, outcome) in group {
                guard outcomes.indices.contains(index) else {
                    if !Repro.reported.withLock({ $0 }) {
                        Repro.reported.withLock { $0 = true }
                        print("first wrong index: \(index) (expected 0..<\(layers.count)) for \(outcome.url)")
                    }
                    continue  // the store would trap; the layer goes missing instead
                }
                outcomes[index] = outcome
            }
            return outcomes.compactMap { $0 }
        }
    }

    /// The workaround: the outcome first, the tuple after.
    func queryLayersOutcomeFirst(_ layers: [String]) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, layer) in layers.enumerated() {
                group.addTask {
                    let outcome: Outcome
                    do throws(Failure) {
                        outcome = Outcome(url: layer, result: .success(try await self.fetch(layer, index)))
                    } catch {
                        outcome = Outcome(url: layer, result: .failure(error))
                    }
                    return (index, outcome)
                }
            }
            var outcomes = [Outcome?](repeating: nil, count: layers.count)
            for await (index, outcome) in group where outcomes.indices.contains(index) { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
    }
}

@main
struct Repro {
    static let reported = Mutex(false)
    static func main() async {
        let engine = Engine()
        let layers = (0..<8).map { "https://example.test/MapServer/\($0)" }
        var wrong = 0
        for _ in 0..<200 {
            let a = await engine.queryLayersTupleAroundCall(layers)
            if a.map(\.url) != layers { wrong += 1 }
        }
        let b = await engine.queryLayersOutcomeFirst(layers)
        print("tuple-around-call: \(wrong) of 200 runs lost or misplaced layers")
        print("outcome-first: \(b.map(\.url) == layers ? "correct" : "WRONG")")
    }
}
