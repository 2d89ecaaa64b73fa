import FeatureGeometry
import Foundation
import Kafka
import Logging
import SampleFeatureServer
import ServiceLifecycle
import Testing

@testable import QueryWorker

/// The worker end to end: requests into the embedded Kafka cluster, queries against the sample feature
/// server, outcomes read back from the result and error topics.
@Suite("Worker end to end")
struct WorkerEndToEndTests {
    static let logger: Logger = {
        var logger = Logger(label: "worker-e2e")
        logger.logLevel = .warning
        return logger
    }()

    struct Topics {
        let requests = "requests-\(UUID().uuidString.prefix(8))"
        let results = "results-\(UUID().uuidString.prefix(8))"
        let errors = "errors-\(UUID().uuidString.prefix(8))"
    }

    @Test func supersessionSharingRejectionAndResults() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Self.logger)
        let topics = Topics()
        try cluster.createTopic(topics.requests, partitions: 3)
        try cluster.createTopic(topics.results, partitions: 1)
        try cluster.createTopic(topics.errors, partitions: 1)
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: 20_000, seed: 7,
                faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query")]),
            dataset: dataset, logger: Self.logger)

        var settings = WorkerSettings()
        settings.bootstrapServers = [cluster.bootstrapServers]
        settings.groupID = "workers-\(UUID().uuidString.prefix(8))"
        settings.workerID = "worker-e2e"
        settings.topics.requests = topics.requests
        settings.topics.results = topics.results
        settings.topics.errors = topics.errors
        settings.allowedHosts = ["127.0.0.1"]
        settings.summaryInterval = .zero
        settings.timeouts.shutdown = .seconds(5)
        let assembly = try WorkerAssembly(settings: settings, logger: Self.logger)
        let group = assembly.serviceGroup(handlesSignals: false, logger: Self.logger)
        let running = Task { try await group.run() }

        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])),
            logger: Self.logger)
        let reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers]),
                groupID: "reader-\(UUID().uuidString.prefix(8))", topics: [topics.results, topics.errors]),
            logger: Self.logger)
        let producerTask = Task { try await producer.run() }
        let readerTask = Task { try await reader.run() }

        func send(_ key: String?, _ json: String) async throws {
            _ = try await producer.send(KafkaProducerMessage(topic: topics.requests, key: key, value: json))
        }

        // A: slow (60 s of latency on the legacy layer); B on the same task supersedes it.
        try await send("t", #"{"requestId":"a","taskId":"t","targets":[{"type":"arcgis","url":"\#(server.layerURL(.legacyParcels))"}],"query":{"where":"UseType = 'Residential'"}}"#)
        #expect(await server.waitUntil { !$0.recentQueries(.legacyParcels).isEmpty })
        let extent = SampleDataset.seedExtent
        try await send("t", #"{"requestId":"b","taskId":"t","targets":[{"type":"arcgis","url":"\#(server.layerURL(.parcels))"}],"query":{"namedWhere":"government","extent":{"xmin":\#(extent.xmin),"ymin":\#(extent.ymin),"xmax":\#(extent.xmax),"ymax":\#(extent.ymax),"spatialReference":{"wkid":102100}}}}"#)
        try await send("c", #"{"requestId":"c","targets":[{"type":"arcgis","url":"\#(server.layerURL(.states))"}],"query":{"where":"POP2000 > 1000000","result":"count"}}"#)
        try await send(nil, "this is not JSON")
        try await send("d", #"{"requestId":"d","targets":[{"type":"arcgis","url":"https://elsewhere.example/arcgis/rest/services/X/FeatureServer/0"}],"query":{}}"#)

        var outcomes: [String: ParsedJSON] = [:]
        var rejectedWithoutID: [ParsedJSON] = []
        for try await message in reader.messages {
            let value = try ParsedJSON(parsing: message.value ?? [])
            if case .string(let id)? = value["requestId"] { outcomes[id] = value } else { rejectedWithoutID.append(value) }
            if outcomes.count + rejectedWithoutID.count >= 5 { break }
        }

        #expect(outcomes["a"]?["status"] == .string("superseded"))
        #expect(outcomes["a"]?["supersededBy"] == .string("b"))
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 }, "A's transfer was aborted at the server")

        #expect(outcomes["b"]?["status"] == .string("succeeded"))
        let truth = try dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'", envelope: extent)
        if case .array(let layers)? = outcomes["b"]?["layers"], case .array(let ids)? = layers.first?["objectIds"] {
            #expect(ids == truth.map { .number(Double($0)) })
        } else {
            Issue.record("b has no objectIds: \(String(describing: outcomes["b"]))")
        }

        #expect(outcomes["c"]?["status"] == .string("succeeded"))
        let states = try dataset.groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        if case .array(let layers)? = outcomes["c"]?["layers"] {
            #expect(layers.first?["count"] == .number(Double(states.count)))
        }

        #expect(outcomes["d"]?["status"] == .string("rejected"))
        #expect(outcomes["d"]?["error"]?["code"] == .string("host_not_allowed"))
        #expect(rejectedWithoutID.first?["status"] == .string("rejected"))
        #expect(rejectedWithoutID.first?["error"]?["code"] == .string("invalid_json"))

        await group.triggerGracefulShutdown()
        try await running.value
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        try await readerTask.value
        try await producerTask.value
        await server.shutdown()
    }
}
