import FeatureGeometry
package import FeatureQuerySupport
import Foundation
package import Kafka
package import Logging
package import SampleFeatureServer
import Synchronization

package import QueryWorker

/// What the lifecycle tests need around workers that come and go: one embedded cluster, one sample feature
/// server, a producer of requests and a reader that collects every outcome in the background. Workers run in
/// process (WorkerIntegrationTests' `startWorker(_:configure:)`) or as `query-worker run` processes
/// (``WorkerProcess``). A rig, not a bench: it measures nothing.
package final class LifecycleRig: Sendable {
    /// One outcome message, reduced to what the tests check.
    package struct Outcome: Sendable, Hashable {
        package var requestId: String?
        package var status: String?
        package var errorCode: String?
        package var worker: String?
    }

    package static let logger: Logger = {
        var logger = Logger(label: "worker-lifecycle")
        logger.logLevel = .critical
        return logger
    }()

    /// The key of the barrier messages this rig writes to the outcome topics itself.
    static let barrierKey = "__lifecycle-barrier__"

    package let cluster: EmbeddedKafkaCluster
    package let server: SampleFeatureServer
    /// The settings every worker starts from (topics, group, allowed hosts).
    package let baseSettings: WorkerSettings
    /// Partitions of the requests topic.
    package let partitions: Int
    package let producer: KafkaProducer
    package let reader: KafkaConsumer
    private let collected = Collected()
    private let tasks: [Task<Void, any Error>]

    package init(partitions: Int = 6, faults: [FaultRule] = [], configure: (inout WorkerSettings) -> Void = { _ in }) async throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Self.logger)
        let suffix = String(UUID().uuidString.prefix(8))
        var settings = try WorkerHarness.settings(
            for: cluster, suffix: suffix, workerID: "worker-lifecycle", requestPartitions: partitions)
        configure(&settings)
        baseSettings = settings
        self.partitions = max(1, partitions)
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 7, faults: faults), dataset: dataset,
            logger: Self.logger)
        let client = KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])
        producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: Self.logger)
        reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: client, groupID: "reader-\(suffix)", topics: [settings.topics.results, settings.topics.errors]),
            logger: Self.logger)
        let (producer, reader, collected) = (producer, reader, collected)
        tasks = [
            Task { try await producer.run() },
            Task { try await reader.run() },
            Task {
                try await readEachOnce(reader) { message in
                    if message.keyString == Self.barrierKey {
                        let id = message.valueString ?? ""
                        collected.withLock { _ = $0.barriers.insert(id) }
                        return
                    }
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    let outcome = Outcome(
                        requestId: value.string("requestId"), status: value.status, errorCode: value.errorCode,
                        worker: value.string("worker"))
                    collected.withLock { $0.outcomes.append(outcome) }
                }
            },
        ]
    }

    package func url(_ layer: SampleLayer) -> String { server.layerURL(layer) }

    /// Sends request messages, `(key, json)`, and waits for their delivery reports. The key picks the
    /// partition, unless `spread`: then message `i` goes to partition `i % partitions`, for tests that need
    /// requests on every partition whatever their keys hash to.
    package func send(_ messages: [(key: String, json: String)], spread: Bool = false) async throws {
        let topic = baseSettings.topics.requests
        let partitions = Int32(clamping: self.partitions)
        let reports = await producer.send(messages.enumerated().map { index, message in
            KafkaProducerMessage(
                topic: topic, partition: spread ? Int32(clamping: index) % partitions : nil, key: message.key,
                value: message.json)
        })
        for report in reports { _ = try report.get() }
    }

    /// The group's committed offset of every request partition that has one, by partition number.
    package func committedOffsets() async throws -> [Int32: Int64] {
        let topic = baseSettings.topics.requests
        let probe = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: baseSettings.bootstrapServers),
                groupID: baseSettings.groupID, topics: [topic]),
            logger: Self.logger)
        let all = (0..<Int32(clamping: partitions)).map { KafkaTopicPartition(topic: topic, partition: $0) }
        return Dictionary(uniqueKeysWithValues: try await probe.committedOffsets(for: all).map { ($0.key.partition, $0.value) })
    }

    /// Every outcome read so far, in the order read (results and errors interleaved).
    package var outcomes: [Outcome] { collected.withLock { $0.outcomes } }

    /// Outcomes by requestId.
    package var outcomesByRequest: [String: [Outcome]] {
        Dictionary(grouping: outcomes.filter { $0.requestId != nil }, by: { $0.requestId ?? "" })
    }

    /// Waits until `condition` holds for the outcomes read so far; false when `timeout` passed first.
    package func waitForOutcomes(timeout: Duration = .seconds(60), _ condition: ([Outcome]) -> Bool) async -> Bool {
        await poll(timeout: timeout) { self.collected.withLock { condition($0.outcomes) } }
    }

    /// Waits until every one of `requestIds` has at least one outcome.
    package func waitForAnswers(to requestIds: some Sequence<String>, timeout: Duration = .seconds(60)) async -> Bool {
        let wanted = Set(requestIds)
        return await waitForOutcomes(timeout: timeout) { outcomes in
            wanted.isSubset(of: Set(outcomes.compactMap(\.requestId)))
        }
    }

    /// Makes sure the reader has read everything published to the outcome topics before this call: writes a
    /// barrier message to each (one partition each, so in order after every earlier outcome) and waits until
    /// both are read. After every worker has stopped, what was read is then all there is.
    package func barrier(timeout: Duration = .seconds(30)) async throws -> Bool {
        let id = UUID().uuidString
        let topics = [baseSettings.topics.results, baseSettings.topics.errors]
        let reports = await producer.send(topics.map { KafkaProducerMessage(topic: $0, key: Self.barrierKey, value: "\(id)/\($0)") })
        for report in reports { _ = try report.get() }
        let expected = Set(topics.map { "\(id)/\($0)" })
        return await poll(timeout: timeout) { self.collected.withLock { expected.isSubset(of: $0.barriers) } }
    }

    /// Stops the clients and the server (workers are stopped by their tests).
    package func stop() async throws {
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        for task in tasks { try await task.value }
        await server.shutdown()
    }

    /// The request JSON the tests send: one target, the given query.
    package static func request(_ id: String, task: String, url: String, query: String = "{}") -> String {
        #"{"requestId":"\#(id)","taskId":"\#(task)","targets":[{"type":"arcgis","url":"\#(url)"}],"query":\#(query)}"#
    }
}

/// What the rig's reader collected: outcomes and barrier ids.
private final class Collected: Sendable {
    private let state = Mutex<(outcomes: [LifecycleRig.Outcome], barriers: Set<String>)>(([], []))

    func withLock<R>(_ body: (inout (outcomes: [LifecycleRig.Outcome], barriers: Set<String>)) -> R) -> R {
        state.withLock { body(&$0) }
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
package func poll(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline, !Task.isCancelled else { return condition() }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

extension ParsedJSON {
    package func string(_ key: String) -> String? { if case .string(let value)? = self[key] { value } else { nil } }
}

/// Reads `reader`'s messages until it stops, handing each to `collect` once: the test readers store no offsets,
/// so after a rebalance of their own they read messages again, told apart by topic, partition and offset.
package func readEachOnce(_ reader: KafkaConsumer, _ collect: (KafkaConsumerMessage) throws -> Void) async throws {
    var seen: Set<String> = []
    for try await message in reader.messages {
        guard seen.insert("\(message.topicPartition)@\(message.offset)").inserted else { continue }
        try collect(message)
    }
}
