extension EmbeddedKafkaCluster {
    /// One line of `query-worker embedded-kafka --fault-commands`: how a script or a test in another process
    /// takes brokers down and up, moves a partition's leader, and injects request errors and latency.
    ///
    /// The grammar (words separated by blanks; BROKER is a broker id, 1 to the broker count, or `all`):
    ///
    ///     down BROKER                      close the broker's connections and refuse new ones
    ///     up BROKER                        accept connections again
    ///     leader TOPIC PARTITION BROKER    move the partition's leader (BROKER a single id; -1: no leader)
    ///     errors API CODE[,CODE...]        fail the next requests of type API, one code each, in order
    ///     delay BROKER API MS[,MS...]      delay the broker's next responses of type API, one delay each
    ///     rtt BROKER MS                    delay every response of the broker by MS (0: no more delay)
    ///
    /// API is a Kafka protocol request name (`Produce`, `Fetch`, `InitProducerId`, ... see
    /// ``APIKey/named``) or its number; CODE is a Kafka protocol error code (7: REQUEST_TIMED_OUT, 6:
    /// NOT_LEADER_FOR_PARTITION, -195: librdkafka's _TRANSPORT, which makes the broker drop the connection).
    package enum FaultCommand: Sendable, Hashable {
        case down([Int32])
        case up([Int32])
        case leader(topic: String, partition: Int32, broker: Int32)
        case errors(APIKey, [ResponseCode])
        case delay([Int32], APIKey, [Duration])
        case roundTrip([Int32], Duration)

        /// Parses one line for a cluster of `brokers`; the error says what is wrong in words.
        package init(parsing line: String, brokers: ClosedRange<Int32>) throws(KafkaError) {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let verb = words.first else { throw Self.invalid("empty command") }
            let arguments = Array(words.dropFirst())
            func expect(_ count: Int, _ shape: String) throws(KafkaError) {
                guard arguments.count == count else { throw Self.invalid("usage: \(verb) \(shape)") }
            }
            switch verb {
            case "down", "up":
                try expect(1, "BROKER|all")
                let ids = try Self.brokers(arguments[0], in: brokers)
                self = verb == "down" ? .down(ids) : .up(ids)
            case "leader":
                try expect(3, "TOPIC PARTITION BROKER")
                guard let partition = Int32(arguments[1]), partition >= 0 else {
                    throw Self.invalid("partition must be a number from 0, got \(arguments[1])")
                }
                guard let broker = Int32(arguments[2]), broker == -1 || brokers.contains(broker) else {
                    throw Self.invalid("leader must be a broker id \(brokers.lowerBound)...\(brokers.upperBound) or -1, got \(arguments[2])")
                }
                self = .leader(topic: arguments[0], partition: partition, broker: broker)
            case "errors":
                try expect(2, "API CODE[,CODE...]")
                let codes = try Self.list(arguments[1], "error code") { Int32($0).map(ResponseCode.init) }
                self = .errors(try Self.api(arguments[0]), codes)
            case "delay":
                try expect(3, "BROKER|all API MS[,MS...]")
                let delays = try Self.list(arguments[2], "delay in milliseconds") { text in
                    Int64(text).flatMap { $0 >= 0 ? Duration.milliseconds($0) : nil }
                }
                self = .delay(try Self.brokers(arguments[0], in: brokers), try Self.api(arguments[1]), delays)
            case "rtt":
                try expect(2, "BROKER|all MS")
                guard let milliseconds = Int64(arguments[1]), milliseconds >= 0 else {
                    throw Self.invalid("round trip must be milliseconds from 0, got \(arguments[1])")
                }
                self = .roundTrip(try Self.brokers(arguments[0], in: brokers), .milliseconds(milliseconds))
            default:
                throw Self.invalid("unknown command \(verb); known: down, up, leader, errors, delay, rtt")
            }
        }

        private static func brokers(_ text: String, in brokers: ClosedRange<Int32>) throws(KafkaError) -> [Int32] {
            if text == "all" { return Array(brokers) }
            guard let id = Int32(text), brokers.contains(id) else {
                throw invalid("broker must be all or an id \(brokers.lowerBound)...\(brokers.upperBound), got \(text)")
            }
            return [id]
        }

        private static func api(_ text: String) throws(KafkaError) -> APIKey {
            if let known = APIKey.named[text] { return known }
            if let number = Int16(text), number >= 0 { return APIKey(number) }
            throw invalid("unknown request type \(text); known: \(APIKey.named.keys.sorted().joined(separator: ", ")) or a number")
        }

        private static func list<T>(_ text: String, _ what: String, _ parse: (String) -> T?) throws(KafkaError) -> [T] {
            var values: [T] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = parse(String(item)) else { throw invalid("not a \(what): \(item)") }
                values.append(value)
            }
            return values
        }

        private static func invalid(_ message: String) -> KafkaError {
            KafkaError(code: .embeddedCluster, message: message)
        }
    }

    /// Parses and applies one command line; returns the one line to answer: `ok <command>` once it is in
    /// force, else `error <why>`. A bad command changes nothing and never stops the cluster.
    package func apply(commandLine line: String) -> String {
        let trimmed = line.trimmingWhitespace()
        do {
            try apply(try FaultCommand(parsing: trimmed, brokers: brokerIDs))
            return "ok \(trimmed)"
        } catch {
            return "error \(error.message)"
        }
    }

    /// Applies a parsed command.
    package func apply(_ command: FaultCommand) throws(KafkaError) {
        switch command {
        case .down(let ids):
            for id in ids { try setBrokerDown(id) }
        case .up(let ids):
            for id in ids { try setBrokerUp(id) }
        case .leader(let topic, let partition, let broker):
            try setPartitionLeader(topic: topic, partition: partition, brokerID: broker)
        case .errors(let api, let codes):
            pushRequestErrors(api, codes)
        case .delay(let ids, let api, let delays):
            for id in ids { try pushResponseDelays(api, brokerID: id, delays) }
        case .roundTrip(let ids, let rtt):
            for id in ids { try setBrokerRoundTrip(id, rtt) }
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
