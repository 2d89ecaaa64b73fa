package import Tracing

/// A span's attributes as a list, in the order they were set.
///
/// Why not `SpanAttributes`: that is a dictionary, so each span allocated a table, hashed every key into it, and
/// the exporter walked the table again to encode it. The worker's spans set a handful of distinct keys once and
/// nobody reads them back before export. In the traced `count` benchmark that cost about 9 % of the worker's
/// samples. A list is appended to and encoded in order; a key set again replaces its earlier value (a short
/// linear search, the keys being few).
package struct SpanAttributeList: Sendable {
    package private(set) var pairs: [(key: String, value: SpanAttribute)] = []

    package init() {}

    package init(_ attributes: SpanAttributes) {
        attributes.forEach { key, value in pairs.append((key, value)) }
    }

    /// The value of `key`, if set.
    package subscript(key: String) -> SpanAttribute? {
        pairs.first { $0.key == key }?.value
    }

    package mutating func reserveCapacity(_ capacity: Int) {
        pairs.reserveCapacity(capacity)
    }

    /// Sets `key` to `value`, replacing an earlier value of the same key.
    package mutating func set(_ key: String, _ value: SpanAttribute) {
        if let index = pairs.firstIndex(where: { $0.key == key }) {
            pairs[index].value = value
        } else {
            pairs.append((key, value))
        }
    }

    package mutating func set(_ key: String, _ value: String) { set(key, .string(value)) }

    package mutating func set(_ key: String, _ value: Int) { set(key, .int64(Int64(value))) }

    package mutating func set(_ key: String, _ value: Bool) { set(key, .bool(value)) }

    /// The same attributes as swift-distributed-tracing's set (for readers of ``Span/attributes``).
    package var spanAttributes: SpanAttributes {
        var attributes = SpanAttributes()
        for (key, value) in pairs { attributes[key] = value }
        return attributes
    }
}

/// A span that takes attributes as a list (``BatchingTracer``'s): see ``SpanAttributeList`` for why.
package protocol AttributeListSpan: Span {
    func appendAttributes(_ write: (inout SpanAttributeList) -> Void)
}

extension Span {
    /// Sets attributes through a list when the span takes one (no dictionary), else through
    /// ``Span/updateAttributes(_:)``. Nothing for a span that does not record.
    package func setAttributes(_ write: (inout SpanAttributeList) -> Void) {
        guard isRecording else { return }
        if let listed = self as? any AttributeListSpan {
            listed.appendAttributes(write)
            return
        }
        var list = SpanAttributeList()
        write(&list)
        updateAttributes { attributes in
            for (key, value) in list.pairs { attributes[key] = value }
        }
    }
}
