import Kafka
import RequestContract

extension RequestDecoder {
    /// Reads a consumed Kafka message (its value and key).
    func decode(_ message: KafkaConsumerMessage, receivedAt: Int64) -> IncomingMessage {
        decode(message.value, key: message.key, receivedAt: receivedAt)
    }
}
