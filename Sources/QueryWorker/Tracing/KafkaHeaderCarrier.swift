import Kafka
import Tracing

/// Reads trace context from a Kafka message's headers for the bootstrapped tracer's propagator (TraceExport's
/// W3C propagator asks for `traceparent` and `tracestate`). The last header with the key wins, as a proxy that
/// appends its own would expect.
struct KafkaHeaderExtractor: Extractor {
    func extract(key: String, from carrier: [KafkaHeader]) -> String? {
        carrier.last(where: { $0.key == key })?.stringValue
    }
}

/// Writes trace context into an outcome's headers, replacing any header of the same key.
struct KafkaHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [KafkaHeader]) {
        carrier.removeAll { $0.key == key }
        carrier.append(KafkaHeader(key: key, string: value))
    }
}
