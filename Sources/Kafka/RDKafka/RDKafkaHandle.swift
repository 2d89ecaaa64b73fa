internal import CRDKafka
import Logging

/// Owns one `rd_kafka_t` and the callback context it points at.
///
/// The handle lives exactly as long as this object, so no Swift code can call into a destroyed client:
/// every call site holds a reference. librdkafka's API is thread-safe, hence `@unchecked Sendable`.
final class RDKafkaHandle: @unchecked Sendable {
    enum Kind { case consumer, producer }

    let pointer: OpaquePointer
    let context: RDKafkaCallbackContext
    private let retainedContext: Unmanaged<RDKafkaCallbackContext>

    /// Creates a client from properties, validating each one: the first unknown property or bad value
    /// throws an error that names it, before any connection is made.
    init(
        kind: Kind,
        properties: [(String, String)],
        context: RDKafkaCallbackContext,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws(KafkaError) {
        guard let conf = rd_kafka_conf_new() else {
            throw KafkaError(code: .clientCreation, message: "rd_kafka_conf_new returned no configuration")
        }
        var confOwned = true
        defer { if confOwned { rd_kafka_conf_destroy(conf) } }

        for (name, value) in properties {
            try Self.set(conf, name, value)
        }
        rd_kafka_conf_set_log_cb(conf, RDKafkaCallbacks.log)
        rd_kafka_conf_set_error_cb(conf, RDKafkaCallbacks.error)
        rd_kafka_conf_set_stats_cb(conf, RDKafkaCallbacks.statistics)
        configure(conf)

        let retained = Unmanaged.passRetained(context)
        rd_kafka_conf_set_opaque(conf, retained.toOpaque())

        var errorBuffer = [CChar](repeating: 0, count: 512)
        let type = kind == .consumer ? RD_KAFKA_CONSUMER : RD_KAFKA_PRODUCER
        guard let rk = rd_kafka_new(type, conf, &errorBuffer, errorBuffer.count) else {
            retained.release()
            throw KafkaError(code: .clientCreation, message: "rd_kafka_new failed: \(String(cBuffer: errorBuffer))")
        }
        confOwned = false  // rd_kafka_new took it
        self.pointer = rk
        self.context = context
        self.retainedContext = retained
    }

    deinit {
        rd_kafka_destroy(pointer)
        retainedContext.release()
    }

    private static func set(_ conf: OpaquePointer, _ name: String, _ value: String) throws(KafkaError) {
        var errorBuffer = [CChar](repeating: 0, count: 512)
        let result = rd_kafka_conf_set(conf, name, value, &errorBuffer, errorBuffer.count)
        switch result {
        case RD_KAFKA_CONF_OK:
            return
        case RD_KAFKA_CONF_UNKNOWN:
            throw KafkaError(code: .invalidConfiguration, message: "unknown configuration property '\(name)'")
        default:
            throw KafkaError(
                code: .invalidConfiguration,
                message: "invalid value for configuration property '\(name)': \(String(cBuffer: errorBuffer))"
            )
        }
    }
}
