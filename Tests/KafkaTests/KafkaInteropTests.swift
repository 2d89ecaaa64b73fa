import ChildProcessFixture
import Foundation
import Kafka
import Testing
import KafkaTestSupport

/// Independent Kafka clients against the same embedded cluster: kcat (librdkafka's own CLI) and aiokafka
/// (a pure-Python client that shares no code with librdkafka).
@Suite struct KafkaInteropTests {
    static let kcatAvailable = ExternalProcess.interopRequired || ExternalProcess.kcat != nil
    static let aiokafkaAvailable = ExternalProcess.interopRequired || ExternalProcess.hasAIOKafka

    @Test(.enabled(if: kcatAvailable, "kcat is not installed (scripts/setup-deps installs it)"))
    func kcatProducesAndTheSwiftConsumerReads() async throws {
        let kcat = try #require(ExternalProcess.kcat, "kcat missing")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("from-kcat")
        try cluster.createTopic(topic, partitions: 3)
        let lines = (0..<200).map { "task-\($0 % 9):{\"n\":\($0)}" }.joined(separator: "\n") + "\n"
        let produced = try await ExternalProcess.run(
            kcat, ["-b", cluster.bootstrapServers, "-t", topic, "-P", "-K:", "-H", "origin=kcat"], input: lines
        )
        #expect(produced.status == 0, "kcat failed: \(produced.stderr)")

        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let received = try await TestSupport.withRunning([consumer]) { try await TestSupport.read(consumer, count: 200) }
        #expect(Set(received.compactMap(\.valueString)) == Set((0..<200).map { "{\"n\":\($0)}" }))
        #expect(received.allSatisfy { $0.keyString?.hasPrefix("task-") == true })
        #expect(received.allSatisfy { $0.header("origin")?.stringValue == "kcat" })
    }

    @Test(.enabled(if: kcatAvailable, "kcat is not installed (scripts/setup-deps installs it)"))
    func theSwiftProducerWritesAndKcatReads() async throws {
        let kcat = try #require(ExternalProcess.kcat, "kcat missing")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("to-kcat")
        try cluster.createTopic(topic, partitions: 2)
        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            let messages = (0..<150).map {
                KafkaProducerMessage(topic: topic, key: "k\($0 % 4)", value: "v\($0)", headers: [KafkaHeader(key: "origin", string: "swift")])
            }
            try await TestSupport.sendAll(producer, messages)
        }
        let consumed = try await ExternalProcess.run(
            kcat, ["-b", cluster.bootstrapServers, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k|%s|%h\n"]
        )
        #expect(consumed.status == 0, "kcat failed: \(consumed.stderr)")
        let rows = consumed.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false) }
        #expect(rows.count == 150)
        #expect(Set(rows.map { String($0[1]) }) == Set((0..<150).map { "v\($0)" }))
        #expect(rows.allSatisfy { $0.count == 3 && $0[2] == "origin=swift" })
    }

    @Test(.enabled(if: aiokafkaAvailable, "aiokafka is not installed (scripts/setup-deps installs it)"))
    func theSwiftProducerWritesAndAiokafkaReadsAsAGroup() async throws {
        let python = try #require(ExternalProcess.python, "python with aiokafka missing")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("to-aiokafka")
        try cluster.createTopic(topic, partitions: 3)
        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            let messages = (0..<120).map {
                KafkaProducerMessage(topic: topic, key: "k\($0 % 5)", value: "v\($0)", headers: [KafkaHeader(key: "origin", string: "swift")])
            }
            try await TestSupport.sendAll(producer, messages)
        }
        let script = ExternalProcess.repositoryRoot.appendingPathComponent("Tests/KafkaTests/Interop/aiokafka_client.py").path
        let consumed = try await ExternalProcess.run(
            python, [script, "consume", cluster.bootstrapServers, topic, "120", TestSupport.uniqueName("py-group")], timeout: .seconds(90)
        )
        #expect(consumed.status == 0, "aiokafka failed: \(consumed.stderr)")
        let rows = consumed.stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        }
        #expect(rows.count == 120)
        #expect(Set(rows.compactMap { $0["value"] }) == Set((0..<120).map { "v\($0)" }))
        #expect(rows.allSatisfy { $0["origin"] == "swift" })
    }

    @Test(.enabled(if: aiokafkaAvailable, "aiokafka is not installed (scripts/setup-deps installs it)"))
    func aiokafkaProducesWithHeadersAndTheSwiftConsumerReads() async throws {
        let python = try #require(ExternalProcess.python, "python with aiokafka missing")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("from-aiokafka")
        try cluster.createTopic(topic, partitions: 2)
        let script = ExternalProcess.repositoryRoot.appendingPathComponent("Tests/KafkaTests/Interop/aiokafka_client.py").path
        let produced = try await ExternalProcess.run(python, [script, "produce", cluster.bootstrapServers, topic, "80"], timeout: .seconds(60))
        #expect(produced.status == 0, "aiokafka failed: \(produced.stderr)")

        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let received = try await TestSupport.withRunning([consumer]) { try await TestSupport.read(consumer, count: 80) }
        #expect(Set(received.compactMap(\.valueString)) == Set((0..<80).map { "py\($0)" }))
        #expect(received.allSatisfy { $0.header("origin")?.stringValue == "aiokafka" })
    }
}
