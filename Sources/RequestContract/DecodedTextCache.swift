package import QueryLanguage
import Synchronization

/// What ``RequestDecoder`` read from texts it saw before: a `where` clause's parse and an ArcGIS target URL's
/// checks, by the text itself.
///
/// A worker serves a handful of clients, each sending the same clauses over the same targets again and again,
/// and parsing them is most of the decoding's work. Only texts that were accepted are kept (an error is
/// worked out again, with its message, each time); the result is a function of the text alone (the decoder's
/// catalog and limits don't change), so a cached answer is the answer. Bounded: a full cache is emptied,
/// so a stream of distinct texts costs one dictionary insert each and never more memory than the bound.
package final class DecodedTextCache: Sendable {
    /// A target URL as ``RequestDecoder/arcGISURL(_:)`` returns it.
    package typealias ArcGISURL = (text: String, isLayer: Bool)

    private struct Entries {
        package var clauses: [String: WhereClause] = [:]
        package var urls: [String: ArcGISURL] = [:]
    }

    /// Texts kept per kind before the cache starts over.
    package let capacity: Int
    private let entries = Mutex(Entries())

    package init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The free `where` clause parsed from `text` before, if any.
    package func clause(_ text: String) -> WhereClause? {
        entries.withLock { $0.clauses[text] }
    }

    package func store(clause: WhereClause, for text: String) {
        entries.withLock { Self.insert(clause, for: text, into: &$0.clauses, capacity: capacity) }
    }

    /// The ArcGIS URL accepted for the raw `url` member `text` before, if any.
    package func arcGISURL(_ text: String) -> ArcGISURL? {
        entries.withLock { $0.urls[text] }
    }

    package func store(arcGISURL: ArcGISURL, for text: String) {
        entries.withLock { Self.insert(arcGISURL, for: text, into: &$0.urls, capacity: capacity) }
    }

    /// Keeps `value` for `text`, starting the kind over when it holds `capacity` texts: a bound without
    /// bookkeeping per hit (the texts of a busy topic repeat or they don't).
    private static func insert<Value>(_ value: Value, for text: String, into texts: inout [String: Value], capacity: Int) {
        if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
        texts[text] = value
    }
}
