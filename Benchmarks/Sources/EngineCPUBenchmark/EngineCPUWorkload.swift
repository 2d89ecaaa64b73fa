import ArcGISEngine
import BenchmarkSupport
import FeatureGeometry
import Foundation
import QueryLanguage
import FeatureService

/// One kind of query run many times through the engine, `concurrency` at a time, with this process's CPU
/// time around the batch.
struct EngineCPUWorkload {
    /// The queries the worker benchmark sends: `count` and `ids` as map views, `features` as a first page.
    enum Kind: String, CaseIterable {
        /// Where + a 200 m envelope: one `returnCountOnly` request.
        case count
        /// Where + a 2 km envelope: one `returnIdsOnly` request returning a few thousand ids.
        case ids
        /// Where + a 1 km envelope, 100 features with geometry as GeoJSON in WGS 84.
        case features
    }

    /// What one batch measured.
    struct Figures {
        var cpuMicroseconds: Double
        var queriesPerSecond: Double
        /// The count, the ids or the features each query returned, on average.
        var resultsPerQuery: Double
    }

    let kind: Kind
    let layer: String
    let engine: ArcGISEngine
    let concurrency: Int

    /// Runs `count` queries and measures them.
    func measure(count: Int) async throws -> Figures {
        let queries = try (0..<count).map(query(_:))
        let start = (ContinuousClock.now, Self.cpuSeconds())
        let (failures, results) = await run(queries)
        let end = (ContinuousClock.now, Self.cpuSeconds())
        guard failures.isEmpty else {
            throw BenchmarkError("\(failures.count) of \(count) \(kind) queries failed; the first: \(failures[0])")
        }
        let seconds = Double((end.0 - start.0).components.attoseconds) / 1e18 + Double((end.0 - start.0).components.seconds)
        return Figures(
            cpuMicroseconds: (end.1 - start.1) * 1e6 / Double(max(count, 1)),
            queriesPerSecond: Double(count) / seconds, resultsPerQuery: Double(results) / Double(max(count, 1)))
    }

    private func run(_ queries: [ServiceQuery]) async -> (failures: [String], results: Int) {
        let engine = engine
        let layer = layer
        return await withTaskGroup(of: Result<Int, FeatureServiceError>.self) { group in
            var next = 0
            func add() {
                let query = queries[next]
                next += 1
                group.addTask {
                    do throws(FeatureServiceError) {
                        return .success(try await engine.query(layer: layer, query).count)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            while next < min(concurrency, queries.count) { add() }
            var failures: [String] = []
            var results = 0
            while let outcome = await group.next() {
                switch outcome {
                case .success(let count): results += count
                case .failure(let error): failures.append("\(error)")
                }
                if next < queries.count { add() }
            }
            return (failures, results)
        }
    }

    /// The `index`th query: its envelope moves over ±3 km around the sample data's viewpoint, so the server
    /// cannot answer from one cached selection.
    private func query(_ index: Int) throws -> ServiceQuery {
        let center = WebMercator.project(longitude: -118.805, latitude: 34.03)
        let size: Double = switch kind {
        case .count: 200
        case .ids: 2_000
        case .features: 1_000
        }
        let step = Double(index % 61) * 100 - 3_000
        let x = center.x + step
        let y = center.y + Double(index % 37) * 160 - 3_000
        let envelope = Envelope(
            xmin: x - size / 2, ymin: y - size / 2, xmax: x + size / 2, ymax: y + size / 2,
            spatialReference: SpatialReference(wkid: 3857))
        let clause = try WhereClause("UseType = 'Residential'")
        switch kind {
        case .count:
            return ServiceQuery(whereClause: clause, geometry: .envelope(envelope), result: .count)
        case .ids:
            return ServiceQuery(whereClause: clause, geometry: .envelope(envelope), result: .ids)
        case .features:
            return ServiceQuery(
                whereClause: clause, geometry: .envelope(envelope), returnGeometry: true,
                outSpatialReference: SpatialReference(wkid: 4326), maxFeatures: 100, result: .features)
        }
    }

    /// This process's CPU time (user + system, every thread), in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
