import ArgumentParser
import Foundation
import Kafka
import Logging
import QueryWorker
import SampleFeatureServer

/// `query-worker demo`: the README's main command. One process runs the embedded Kafka cluster, the sample
/// feature server and a worker, publishes the seed's queries (and a few that show supersession, a failing
/// sublayer and the host allowlist, and a secured layer behind one-minute tokens), prints each outcome as it
/// arrives, and checks every one against the dataset's ground truth. Exits 1 when an outcome is missing or
/// wrong, so it doubles as a smoke test.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the worker end to end on the embedded defaults and check every outcome.",
        discussion: """
            Starts an in-process Kafka cluster (librdkafka's mock cluster on loopback), the sample feature \
            server and one worker (allowedHosts 127.0.0.1), then publishes: the seed's seven where clauses \
            over the seed extent on LA_County_Parcels/FeatureServer/0; the USA fan-out (USA/MapServer, \
            sublayers 0, 2, 3); a request for the real LA County layer, which the allowlist refuses; the seed's \
            OGC API Features flow; the feature-table queries of contract 1.2 (land value by use type in the seed \
            extent, computed by the ArcGIS layer and by the worker over the OGC collection, the ten most valuable \
            parcels in view, a year of sales on the time-aware LA_County_Parcels/FeatureServer/1, and a time window \
            on the parcels layer, which is not time-aware and must fail with invalid_query); with faults on, \
            the fan-out again with one sublayer failing (partial); and five requests on one task in \
            quick succession (the first four superseded); then, on the server's Secured folder behind \
            one-minute tokens (a token credential in a credentials file written to a temporary folder), a \
            100,000-feature download that outlives its token and 50 requests at once after every token was \
            revoked, printing the token calls each cost (one). Each outcome is printed as it arrives and compared \
            with the dataset's ground truth. Exit status 0 when every outcome is as expected, else 1. Logs \
            (warnings and worse by default) go to standard error.
            """
    )

    @Option(help: "Parcels to generate for the sample feature server.")
    var parcels = SampleDataset.defaultParcelCount

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 1

    @Option(help: "Latency added to the legacy layer while the burst runs, in milliseconds (makes supersession visible).")
    var burstLatencyMs = 300

    @Option(help: "Log level (logs go to standard error): trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(.warning)

    func validate() throws {
        guard parcels >= DemoPlan.downloadFeatures else {
            throw ValidationError("--parcels must be at least \(DemoPlan.downloadFeatures) (the secured phase downloads that many)")
        }
        guard (50...10_000).contains(burstLatencyMs) else { throw ValidationError("--burst-latency-ms must be 50-10000") }
    }

    func run() async throws {
        MallocTuning.apply(environment: ProcessInfo.processInfo.environment)
        let clock = ContinuousClock()
        let started = clock.now
        let logger = StandardErrorLogging.logger(label: "demo", level: logLevel.level)
        printLine("query-worker demo")
        let objectStore: DemoObjectStore?
        switch await DemoObjectStore.start() {
        case .success(let store): objectStore = store
        case .failure(let unavailable):
            objectStore = nil
            printLine("  store    none, so no stored result: \(unavailable)")
        }
        let stack: DemoStack
        do {
            stack = try await DemoStack.start(parcels: parcels, seed: seed, objectStore: objectStore, logger: logger)
        } catch {
            await objectStore?.stop()
            throw error
        }
        defer { stack.credentials.remove() }
        let settings = stack.settings
        printLine(
            "  Kafka    embedded cluster at \(stack.cluster.bootstrapServers): \(settings.topics.requests) "
                + "(\(DemoStack.requestPartitions) partitions), \(settings.topics.results), \(settings.topics.errors) "
                + "(\(DemoStack.outcomePartitions) each: the mock keeps ~5 MiB per partition)")
        printLine(
            "  server   sample feature server at \(stack.server.baseURL): "
                + "\(OutcomeText.grouped(stack.server.dataset.parcelCount)) parcels, ready in \(Self.seconds(clock.now - started))")
        let truthStarted = clock.now
        let plan = try DemoPlan.make(server: stack.server)
        let count = (plan.seedPhase + plan.ogcPhase + plan.tablePhase + plan.relatedPhase + plan.faultPhase).count + plan.securedPhase.all.count
        printLine("  truth    \(count) expected outcomes, computed by brute force over the dataset in \(Self.seconds(clock.now - truthStarted))")
        printLine("  worker   \(settings.workerID) in group \(settings.groupID), allowedHosts \(settings.allowedHosts.joined(separator: ","))")
        printLine("  secured  portal \(stack.server.portalURL ?? "-"); credentials file \(stack.credentials.file)")

        if let objectStore {
            printLine(
                "  store    moto's S3 API at \(objectStore.endpoint), bucket \(objectStore.bucket): a layer above "
                    + "\(OutcomeText.grouped(settings.resultStore.thresholdBytes >> 10)) KiB, or asked with delivery store, goes there")
        }
        let report: DemoReport
        do {
            report = try await stack.run { producer in
                try await play(plan, stack: stack, producer: producer, logger: logger)
            }
        } catch {
            await objectStore?.stop()
            throw error
        }
        await objectStore?.stop()
        printLine("")
        let summary = "\(report.received) of \(report.requested) outcomes (\(report.statusSummary)) in \(Self.seconds(clock.now - started))"
        guard report.allAsExpected else {
            printLine("Something is wrong: \(summary)")
            for failure in report.failures { printLine("  \(failure)") }
            throw ExitCode(1)
        }
        printLine("All as expected: \(summary); every count, id list, statistic and related record matches the dataset's ground truth.")
    }

    /// The phases: the seed queries, OGC API Features, the feature-table queries, related records, the same
    /// fan-out with a failing sublayer and the burst, then the secured layer (``DemoSecuredPhase``).
    private func play(_ plan: DemoPlan, stack: DemoStack, producer: KafkaProducer, logger: Logger) async throws -> DemoReport {
        let topics = stack.settings.topics
        let client = KafkaClientConfiguration(bootstrapServers: stack.settings.bootstrapServers, clientID: "demo-outcomes")
        var wanted = Set((plan.seedPhase + plan.ogcPhase + plan.tablePhase + plan.relatedPhase + plan.faultPhase + plan.securedPhase.all).map(\.requestId))
        if stack.objectStore != nil { wanted.insert(DemoStoredPhase.requestId) }
        // 100 s for the public phases, and the secured phase's download (about 80 s) and the rest of it.
        // The demo's topics are new: reading them from the beginning reads exactly the demo's outcomes.
        return try await OutcomeStream.withStream(
            client: client, fetchWaitMax: EmbeddedKafkaCluster.fetchWaitMax, topics: [topics.results, topics.errors],
            start: .beginning, wanted: wanted,
            deadline: .now.advanced(by: .seconds(100 + 150)), logger: logger
        ) { stream in
            var report = DemoReport(labels: plan.labels)
            printLine("")
            printLine("The seed's seven where clauses over the seed extent, the USA fan-out, a host outside the allowlist:")
            try await DemoStack.send(plan.seedPhase, with: producer, topic: topics.requests)
            try await report.collect(plan.seedPhase, from: &stream)

            printLine("")
            printLine(
                "OGC API Features on the same server: browse the landing page, load \(DemoPlan.daraaCollection.id) with "
                    + "maxFeatures \(DemoPlan.ogcMaxFeatures), a clause the server filters, one only the worker can, and a seed "
                    + "clause asked of the ArcGIS layer and the OGC collection at once:")
            try await DemoStack.send(plan.ogcPhase, with: producer, topic: topics.requests)
            try await report.collect(plan.ogcPhase, from: &stream)

            printLine("")
            printLine(
                "Feature tables (contract 1.2): land value by use type in the seed extent, computed by the ArcGIS layer "
                    + "and by the worker over the OGC collection; the \(DemoPlan.topCount) most valuable parcels in view; "
                    + "a year of sales on the time-aware layer; a time window on a layer that is not time-aware:")
            try await DemoStack.send(plan.tablePhase, with: producer, topic: topics.requests)
            try await report.collect(plan.tablePhase, from: &stream)

            printLine("")
            printLine(
                "Related records (contract 1.2): a parcel's \(DemoPlan.historyLength) assessments, newest first, and the "
                    + "counties of the states over \(OutcomeText.grouped(DemoPlan.statePopulation)) people:")
            try await DemoStack.send(plan.relatedPhase, with: producer, topic: topics.requests)
            try await report.collect(plan.relatedPhase, from: &stream)

            if stack.objectStore != nil {
                let stored = DemoStoredPhase(server: stack.server, producer: producer, topic: topics.requests, logger: logger)
                try await stored.play(into: &report, from: &stream)
            }

            stack.server.setFaults([
                FaultRule(.htmlPage(status: 403), pathContains: DemoPlan.faultedLayer.path + "/query"),
                FaultRule(.latency(milliseconds: burstLatencyMs), pathContains: SampleLayer.legacyParcels.path),
            ])
            printLine("")
            printLine(
                "With faults: \(DemoPlan.faultedLayer.path) answers with an HTTP 403 page; the legacy layer answers "
                    + "\(burstLatencyMs) ms late while \(DemoPlan.burstSize) requests on task \"\(DemoPlan.burstTask)\" pan the map:")
            try await DemoStack.send(plan.faultPhase, with: producer, topic: topics.requests)
            try await report.collect(plan.faultPhase, from: &stream)
            stack.server.setFaults([])

            let secured = DemoSecuredPhase(
                plan: plan.securedPhase, server: stack.server, authority: stack.authority, producer: producer, topic: topics.requests)
            try await secured.play(into: &report, from: &stream)
            return report
        }
    }

    /// `1.4 s`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        let tenths = (whole * 1_000 + attoseconds / 1_000_000_000_000_000 + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
