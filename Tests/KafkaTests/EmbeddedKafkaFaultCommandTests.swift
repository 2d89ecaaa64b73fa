import Kafka
import Testing
import KafkaTestSupport

/// The line commands of `query-worker embedded-kafka --fault-commands`: parsed into faults, applied to a
/// cluster, and answered with one line; a bad line is answered `error ...` and changes nothing.
@Suite struct EmbeddedKafkaFaultCommandTests {
    typealias Command = EmbeddedKafkaCluster.FaultCommand

    @Test func commandsParseIntoFaults() throws {
        let brokers: ClosedRange<Int32> = 1...3
        #expect(try Command(parsing: "down all", brokers: brokers) == .down([1, 2, 3]))
        #expect(try Command(parsing: "  up   2 ", brokers: brokers) == .up([2]))
        #expect(try Command(parsing: "leader jobs 4 3", brokers: brokers) == .leader(topic: "jobs", partition: 4, broker: 3))
        #expect(try Command(parsing: "leader jobs 0 -1", brokers: brokers) == .leader(topic: "jobs", partition: 0, broker: -1))
        #expect(
            try Command(parsing: "errors Produce 7,7,-195", brokers: brokers)
                == .errors(.produce, [.requestTimedOut, .requestTimedOut, EmbeddedKafkaCluster.ResponseCode(-195)]))
        #expect(try Command(parsing: "errors 22 47", brokers: brokers) == .errors(.initProducerID, [EmbeddedKafkaCluster.ResponseCode(47)]))
        #expect(
            try Command(parsing: "delay 1 Fetch 500,0", brokers: brokers) == .delay([1], .fetch, [.milliseconds(500), .zero]))
        #expect(try Command(parsing: "rtt all 250", brokers: brokers) == .roundTrip([1, 2, 3], .milliseconds(250)))
    }

    @Test(arguments: [
        ("", "empty command"),
        ("shutdown", "unknown command shutdown"),
        ("down", "usage: down BROKER|all"),
        ("down 4", "broker must be all or an id 1...3, got 4"),
        ("down 0", "broker must be all or an id 1...3, got 0"),
        ("leader jobs x 1", "partition must be a number from 0, got x"),
        ("leader jobs 0 all", "leader must be a broker id 1...3 or -1, got all"),
        ("errors Produce", "usage: errors API CODE[,CODE...]"),
        ("errors Produce 7,,7", "not a error code: "),
        ("errors Bogus 7", "unknown request type Bogus"),
        ("delay 1 Fetch -5", "not a delay in milliseconds: -5"),
        ("rtt 1 soon", "round trip must be milliseconds from 0, got soon"),
    ])
    func badCommandsSayWhatIsWrong(line: String, message: String) {
        #expect(throws: KafkaError.self) { try Command(parsing: line, brokers: 1...3) }
        do {
            _ = try Command(parsing: line, brokers: 1...3)
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.code == .embeddedCluster)
        }
    }

    /// Applied to a live cluster: the answer says `ok` once in force, `error` for a bad line, and a cluster
    /// answering errors goes on serving.
    @Test func aClusterAnswersEachLine() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 2, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("commands")
        try cluster.createTopic(topic, partitions: 2, replicationFactor: 2)
        #expect(cluster.apply(commandLine: "leader \(topic) 1 2") == "ok leader \(topic) 1 2")
        #expect(cluster.apply(commandLine: "rtt all 0") == "ok rtt all 0")
        #expect(cluster.apply(commandLine: "delay 2 Produce 0") == "ok delay 2 Produce 0")
        #expect(cluster.apply(commandLine: "errors Heartbeat 7") == "ok errors Heartbeat 7")
        #expect(cluster.apply(commandLine: "down 9").hasPrefix("error broker must be all or an id 1...2"))
        #expect(cluster.apply(commandLine: "fly away").hasPrefix("error unknown command fly"))

        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            let report = try await producer.send(KafkaProducerMessage(topic: topic, partition: 1, key: "k", value: "after"))
            #expect(report.partition == 1)
        }
    }
}
