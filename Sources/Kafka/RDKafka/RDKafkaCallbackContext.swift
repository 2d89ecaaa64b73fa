internal import CRDKafka
import Logging
import Synchronization

/// What librdkafka's C callbacks reach through the client's opaque pointer.
///
/// It is handed to librdkafka retained (`Unmanaged.passRetained`) and released by ``RDKafkaHandle`` after
/// `rd_kafka_destroy`, when no callback can run any more. It never holds the handle itself, so the handle's
/// last reference can't be dropped on one of librdkafka's own threads.
final class RDKafkaCallbackContext: Sendable {
    let logger: Logger
    /// Called on the poll thread from inside `rebalance_cb`; set only for consumers.
    let rebalance: (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void)?
    /// Called on the poll thread from inside `offset_commit_cb`; set only for consumers.
    let commit: (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?) -> Void)?
    /// The first fatal error librdkafka reported, if any.
    let fatalError = Mutex<KafkaError?>(nil)
    /// What the error callback and the client's traffic say about the cluster (see ``KafkaConnectivity``).
    private let connectivityState = Mutex(KafkaConnectivity())
    /// Set while ``connectivityState`` says all brokers are down: the hot paths that clear it (every fetched
    /// batch, every delivery report) check this flag, not the lock.
    private let brokersDown = Atomic<Bool>(false)

    init(
        logger: Logger,
        rebalance: (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void)? = nil,
        commit: (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?) -> Void)? = nil
    ) {
        self.logger = logger
        self.rebalance = rebalance
        self.commit = commit
    }

    var connectivity: KafkaConnectivity { connectivityState.withLock { $0 } }

    /// The client heard from the cluster: "all brokers down" no longer holds. Cheap when it did not hold.
    func heardFromCluster() {
        guard brokersDown.load(ordering: .relaxed) else { return }
        connectivityState.withLock { $0.allBrokersDownSince = nil }
        brokersDown.store(false, ordering: .relaxed)
    }

    /// Records an error from librdkafka's error callback; returns whether it changes what an operator should
    /// know: the first "all brokers down" of an outage, or any error while the brokers are not known down.
    /// Connection failures repeated during an outage are then not logged again at warning level (the worker's
    /// periodic "waiting for the Kafka cluster" line carries the last one).
    func recordError(code: String, message: String, allBrokersDown: Bool) -> Bool {
        let now = ContinuousClock.now
        return connectivityState.withLock { state in
            let wasDown = state.allBrokersDownSince != nil
            state.lastError = .init(code: code, message: message, at: now)
            if allBrokersDown, !wasDown {
                state.allBrokersDownSince = now
                brokersDown.store(true, ordering: .relaxed)
                return true
            }
            return !wasDown
        }
    }

    static func from(_ opaque: UnsafeMutableRawPointer?) -> RDKafkaCallbackContext? {
        guard let opaque else { return nil }
        return Unmanaged<RDKafkaCallbackContext>.fromOpaque(opaque).takeUnretainedValue()
    }

    static func from(handle rk: OpaquePointer?) -> RDKafkaCallbackContext? {
        guard let rk else { return nil }
        return from(rd_kafka_opaque(rk))
    }
}

/// The C callbacks shared by consumers and producers. Each finds its context through the opaque pointer.
enum RDKafkaCallbacks {
    static let log: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void = {
        rk, level, facility, buffer in
        guard let context = RDKafkaCallbackContext.from(handle: rk) else { return }
        let facilityText = facility.map { String(cString: $0) } ?? ""
        let text = buffer.map { String(cString: $0) } ?? ""
        // A broker connection failure (facility FAIL) also reaches the error callback, structured and with a
        // code: logged there, it is kept here for debugging only.
        let level = facilityText == "FAIL" ? Logger.Level.debug : Logger.Level(syslogLevel: level)
        context.logger.log(
            level: level,
            "\(text)",
            metadata: ["librdkafka.facility": .string(facilityText), "kafka.client": .string(RDKafkaHandle.name(rk))]
        )
    }

    static let statistics: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
        _, json, length, opaque in
        guard let context = RDKafkaCallbackContext.from(opaque), let json else { return 0 }
        let text = String(decoding: UnsafeRawBufferPointer(start: json, count: length), as: UTF8.self)
        context.logger.debug("librdkafka statistics", metadata: ["librdkafka.statistics": "\(text)"])
        return 0  // librdkafka frees the JSON
    }

    static let error: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = {
        rk, code, reason, opaque in
        guard let context = RDKafkaCallbackContext.from(opaque) else { return }
        let reasonText = reason.map { String(cString: $0) } ?? ""
        let err = rd_kafka_resp_err_t(rawValue: code)
        if err == RD_KAFKA_RESP_ERR__FATAL, let rk {
            var buffer = [CChar](repeating: 0, count: 512)
            let underlying = rd_kafka_fatal_error(rk, &buffer, buffer.count)
            let text = String(cBuffer: buffer)
            var fatal = KafkaError.rdKafka(underlying, context: "fatal error: \(text)", defaultCode: .fatal)
            fatal.isFatal = true
            context.fatalError.withLock { if $0 == nil { $0 = fatal } }
            context.logger.critical(
                "librdkafka fatal error", metadata: ["error": "\(fatal)", "kafka.client": .string(RDKafkaHandle.name(rk))])
            return
        }
        // Broker-down and transport errors are retried by librdkafka itself: they are worth a log line only,
        // and only the first of an outage at warning level.
        let name = KafkaError.rdKafka(err, context: reasonText).rdKafkaName ?? ""
        let news = context.recordError(code: name, message: reasonText, allBrokersDown: err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
        context.logger.log(
            level: news ? .warning : .debug,
            "librdkafka error",
            metadata: ["error.code": .string(name), "error.message": .string(reasonText), "kafka.client": .string(RDKafkaHandle.name(rk))]
        )
    }
}

extension Logger.Level {
    /// librdkafka logs with syslog levels (0 emergency ... 7 debug).
    init(syslogLevel: Int32) {
        switch syslogLevel {
        case ...2: self = .critical
        case 3: self = .error
        case 4: self = .warning
        case 5: self = .notice
        case 6: self = .info
        default: self = .debug
        }
    }
}
