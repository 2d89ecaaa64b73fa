import QueryLanguage
import Synchronization

/// What ``RequestDecoder`` read from texts it saw before: a `where` clause's parse and an ArcGIS target URL's
/// checks, by the text itself.
///
/// A worker serves a handful of clients, each sending the same clauses over the same targets again and again,
/// and parsing them is most of the decoding's work. Only texts that were accepted are kept (an error is
/// worked out again, with its message, each time); the result is a function of the text alone (the decoder's
/// catalog and limits don't change), so a cached answer is the answer. Bounded: a full cache is emptied,
/// so a stream of distinct texts costs one dictionary insert each and never more memory than the bound.
final class DecodedTextCache: Sendable {
    /// A target URL as ``RequestDecoder/arcGISURL(_:)`` returns it.
    typealias ArcGISURL = (text: String, isLayer: Bool)

    private struct Entries {
        var clauses: [String: WhereClause] = [:]
        var urls: [String: ArcGISURL] = [:]
    }

    /// Texts kept per kind before the cache starts over.
    let capacity: Int
    private let entries = Mutex(Entries())

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The free `where` clause parsed from `text` before, if any.
    func clause(_ text: String) -> WhereClause? {
        entries.withLock { $0.clauses[text] }
    }

    func store(clause: WhereClause, for text: String) {
        entries.withLock { entries in
            if entries.clauses.count >= capacity { entries.clauses.removeAll(keepingCapacity: true) }
            entries.clauses[text] = clause
        }
    }

    /// The ArcGIS URL accepted for the raw `url` member `text` before, if any.
    func arcGISURL(_ text: String) -> ArcGISURL? {
        entries.withLock { $0.urls[text] }
    }

    func store(arcGISURL: ArcGISURL, for text: String) {
        entries.withLock { entries in
            if entries.urls.count >= capacity { entries.urls.removeAll(keepingCapacity: true) }
            entries.urls[text] = arcGISURL
        }
    }
}
