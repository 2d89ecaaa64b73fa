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
    /// The first fatal error librdkafka reported, if any.
    let fatalError = Mutex<KafkaError?>(nil)

    init(
        logger: Logger,
        rebalance: (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void)? = nil
    ) {
        self.logger = logger
        self.rebalance = rebalance
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
        context.logger.log(
            level: Logger.Level(syslogLevel: level),
            "\(text)",
            metadata: ["librdkafka.facility": "\(facilityText)"]
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
            context.logger.critical("librdkafka fatal error", metadata: ["error": "\(fatal)"])
            return
        }
        // Broker-down and transport errors are retried by librdkafka itself: they are worth a log line only.
        context.logger.warning(
            "librdkafka error",
            metadata: ["error.code": "\(KafkaError.rdKafka(err, context: reasonText).rdKafkaName ?? "")", "error.message": "\(reasonText)"]
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
