import FeatureGeometry
import Foundation
import FeatureQueryClient
import QueryWorker
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The client against a real worker: answers checked with the sample dataset's ground truth.
@Suite("FeatureQueryClient end to end")
struct FeatureQueryClientEndToEndTests {
    static let seedExtent: Query.Extent = {
        let box = SampleDataset.seedExtent
        return Query.Extent(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax, wkid: 102100)
    }()

    @Test func countIdsAndASplitResultMatchTheGroundTruth() async throws {
        // Small result messages: the residential ids (thousands) come in several parts.
        let rig = try ClientRig.start(harness: try await WorkerHarness { $0.limits.maxResultBytes = 4_096 })
        let harness = rig.harness
        let states = try harness.dataset.groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        let government = try harness.dataset.groundTruthObjectIDs(
            .parcels, where: "UseType = 'Government'", envelope: SampleDataset.seedExtent)
        let residential = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Residential'")

        let count = try await rig.client.submit(QueryJob(
            taskId: "count", targets: [.arcgis(url: harness.url(.states))],
            query: Query(where: "POP2000 > 1000000", result: .count)))
        #expect(count.status == .succeeded)
        #expect(count.layers.first?.count == states.count)
        #expect(count.layers.first?.objectIds == nil)

        let table = try await rig.client.submit(QueryJob(
            taskId: "table", targets: [.arcgis(url: harness.url(.states))],
            query: Query(where: "POP2000 > 1000000", result: .statistics, statistics: [.init("count", field: "POP2000", name: "n")])))
        #expect(table.layers.first?.statistics == [.init(group: [:], values: ["n": .integer(Int64(states.count))])])

        let features = try await rig.client.submit(QueryJob(
            taskId: "features", targets: [.arcgis(url: harness.url(.states))],
            query: Query(where: "POP2000 > 1000000", outFields: ["POP2000"], result: .features)))
        let collection = try #require(features.layers.first?.featureCollection)
        let geoJSON = try #require(try JSONSerialization.jsonObject(with: collection) as? [String: Any])
        #expect(geoJSON["type"] as? String == "FeatureCollection")
        #expect((geoJSON["features"] as? [Any])?.count == states.count)

        let outcomes = await rig.client.submit([
            QueryJob(
                taskId: "government", targets: [.arcgis(url: harness.url(.parcels))],
                query: Query(where: "UseType = 'Government'", extent: Self.seedExtent)),
            QueryJob(
                taskId: "residential", targets: [.arcgis(url: harness.url(.parcels))],
                query: Query(where: "UseType = 'Residential'", result: .ids)),
        ])
        let ids = try outcomes[0].get()
        #expect(ids.status == .succeeded)
        #expect(ids.layers.first?.objectIds == government.map(Int64.init))
        let split = try outcomes[1].get()
        #expect(split.messages.count > 1, "the residential ids came in one message: the split went untested")
        #expect(split.layers.count == 1)
        #expect(split.layers.first?.complete == true)
        #expect(split.layers.first?.objectIds == residential.map(Int64.init))
        #expect(split.layers.first?.count == residential.count)
        try await rig.stop()
    }

    @Test func anOGCCollectionIsCountedAsTheGroundTruthSays() async throws {
        let rig = try ClientRig.start(harness: try await WorkerHarness())
        let harness = rig.harness
        let collection = try WorkerHarness.collection(.states)
        let states = try harness.dataset.groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        let outcome = try await rig.client.submit(QueryJob(
            taskId: "ogc", targets: [.ogc(landingPage: harness.server.ogcURL, collection: collection)],
            query: Query(where: "POP2000 > 1000000", result: .count)))
        #expect(outcome.status == .succeeded)
        #expect(outcome.layers.first?.collection == collection)
        #expect(outcome.layers.first?.count == states.count)
        try await rig.stop()
    }

    @Test func aJobTheWorkerWouldRejectIsThrownWithItsCodeAndNeverPublished() async throws {
        // Not running: a job that passed the checks would wait for the reader, so an answer proves none was sent.
        let client = try FeatureQueryClient(configuration: .init(bootstrapServers: ["127.0.0.1:1"]), logger: WorkerHarness.logger)
        let jobs = [
            (QueryJob(taskId: "t", targets: [.arcgis(url: "http://127.0.0.1/x/FeatureServer/0")], query: Query(where: "UseType = ")), "invalid_where"),
            (QueryJob(taskId: "t", targets: [], query: Query()), "no_targets"),
            (QueryJob(taskId: "t", targets: [.ogc(landingPage: "http://127.0.0.1/ogc", collection: nil)], query: Query()), "missing_field"),
            (QueryJob(taskId: "t", targets: [.arcgis(url: "http://127.0.0.1/x/FeatureServer/0")], query: Query(result: .count, orderBy: [.init("A")])), "invalid_value"),
            (QueryJob(taskId: "t", targets: [.arcgis(url: "ftp://127.0.0.1/x/FeatureServer/0")]), "invalid_url"),
        ]
        for (job, code) in jobs {
            do throws(FeatureQueryError) {
                _ = try await client.submit(job, timeout: .seconds(1))
                Issue.record("\(job) was accepted")
            } catch {
                #expect(error.code.rawValue == code, "\(error)")
                #expect(!error.isRetryable)
                #expect(!error.isFatal)
            }
        }
        // A valid job passes the same check.
        #expect(throws: Never.self) {
            try client.validate(QueryJob(
                taskId: "t", targets: [.arcgis(url: "http://127.0.0.1/x/FeatureServer/0")],
                query: Query(where: "A = 1", result: .ids, time: .init(start: "2020-01-01T00:00:00Z", end: nil))))
        }
    }

    @Test func progressArrivesAsAStreamThatEndsWithTheCall() async throws {
        // Four slow OGC pages of 15 states: two or three events at the worker's one a second.
        let states = try WorkerHarness.collection(.states)
        let rig = try ClientRig.start(harness: try await WorkerHarness(faults: [
            FaultRule(.latency(milliseconds: 700), pathContains: "/collections/\(states)/items")
        ]))
        let harness = rig.harness
        let job = QueryJob(
            taskId: "progress", targets: [.ogc(landingPage: harness.server.ogcURL(quirks: ["max-limit-15"]), collection: states)],
            query: Query(result: .ids), progress: true)
        let stream = rig.client.progress(of: job.requestId)
        let watched = Task {
            var events: [QueryProgress] = []
            for await event in stream { events.append(event) }
            return events
        }
        let outcome = try await rig.client.submit(job)
        #expect(outcome.status == .succeeded)
        // The stream finished with the call: the watcher ends on its own.
        let events = await watched.value
        #expect(events.count >= 2, "\(events)")
        #expect(events.allSatisfy { $0.requestId == job.requestId })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.features <= $1.features && $0.pages <= $1.pages })
        #expect((events.last?.features ?? 0) > (events.first?.features ?? 0))
        #expect(events.first?.expected == (try harness.dataset.groundTruthObjectIDs(.states)).count, "numberMatched")
        // A job without progress: a stream for it gets nothing and ends with its call.
        let quiet = QueryJob(taskId: "quiet", targets: [.arcgis(url: harness.url(.states))], query: Query(result: .count))
        let none = rig.client.progress(of: quiet.requestId)
        _ = try await rig.client.submit(quiet)
        var count = 0
        for await _ in none { count += 1 }
        #expect(count == 0)
        try await rig.stop()
    }

    @Test func aPublishOnlyClientPublishesJobsAndRefusesToWait() async throws {
        let harness = try await WorkerHarness()
        let settings = harness.settings
        // No outcome topics named that exist: a client that only publishes never looks for them.
        let client = try FeatureQueryClient(
            configuration: .init(
                bootstrapServers: settings.bootstrapServers, requestsTopic: settings.topics.requests,
                resultsTopic: "no-such-results", errorsTopic: "no-such-errors", readsOutcomes: false),
            logger: WorkerHarness.logger)
        let running = Task { try await client.run() }
        let job = QueryJob(targets: [.arcgis(url: harness.url(.states))], query: Query(where: "POP2000 > 1000000", result: .count))
        do throws(FeatureQueryError) {
            _ = try await client.submit(job, timeout: .seconds(5))
            Issue.record("a client that reads no outcomes waited for one")
        } catch {
            #expect(error.code == .notReading)
            #expect(error.isFatal)
        }
        // Published without a taskId (keyed by its requestId): the worker runs it.
        let before = harness.server.statistics.recentQueries(.states).count
        try await client.publish(job)
        #expect(await harness.server.waitUntil { $0.recentQueries(.states).count > before }, "the worker ran the published job")
        running.cancel()
        _ = await running.result
        try await harness.stop()
    }

    @Test func supersessionCancelAndTimeout() async throws {
        // The legacy layer answers after a minute: its jobs stay in flight until superseded or cancelled.
        let slowPath = "LA_County_Parcels_Legacy/MapServer/0/query"
        let rig = try ClientRig.start(harness: try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: slowPath)]))
        let harness = rig.harness
        let client = rig.client
        let slow = Query(where: "UseType = 'Residential'")

        // Supersession: the older call returns `superseded`, naming the newer job.
        let older = Task {
            try await client.submit(QueryJob(taskId: "map", requestId: "map-1", targets: [.arcgis(url: harness.url(.legacyParcels))], query: slow))
        }
        #expect(await harness.server.waitUntil { $0.recentQueries(.legacyParcels).count >= 1 })
        let newer = try await client.submit(QueryJob(
            taskId: "map", requestId: "map-2", targets: [.arcgis(url: harness.url(.states))], query: Query(result: .count)))
        #expect(newer.status == .succeeded)
        let superseded = try await older.value
        #expect(superseded.status == .superseded)
        #expect(superseded.supersededBy == "map-2")
        #expect(superseded.error?.code.rawValue == "superseded")

        // Cancel: the task's job in flight is answered `cancelled`.
        let seen = harness.server.statistics.recentQueries(.legacyParcels).count
        let cancelled = Task {
            try await client.submit(QueryJob(taskId: "cancel-me", targets: [.arcgis(url: harness.url(.legacyParcels))], query: slow))
        }
        #expect(await harness.server.waitUntil { $0.recentQueries(.legacyParcels).count > seen })
        try await client.cancel(taskId: "cancel-me")
        let outcome = try await cancelled.value
        #expect(outcome.status == .cancelled)
        #expect(outcome.error?.code.rawValue == "cancel_requested")

        // Cancelling the calling task ends its call (not the job, which the task's cancel then stops).
        let before = harness.server.statistics.recentQueries(.legacyParcels).count
        let abandoned = Task {
            try await client.submit(QueryJob(taskId: "abandoned", targets: [.arcgis(url: harness.url(.legacyParcels))], query: slow))
        }
        #expect(await harness.server.waitUntil { $0.recentQueries(.legacyParcels).count > before })
        abandoned.cancel()
        do {
            _ = try await abandoned.value
            Issue.record("a cancelled call returned an outcome")
        } catch let error as FeatureQueryError {
            #expect(error.code == .callCancelled)
        }
        try await client.cancel(taskId: "abandoned")

        // Timeout: the call ends, retryable, while the job runs on (then it is cancelled).
        do throws(FeatureQueryError) {
            _ = try await client.submit(
                QueryJob(taskId: "patient", targets: [.arcgis(url: harness.url(.legacyParcels))], query: slow),
                timeout: .milliseconds(500))
            Issue.record("a minute-long job answered within half a second")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.isRetryable)
        }
        try await client.cancel(taskId: "patient")
        try await rig.stop()
    }
}
