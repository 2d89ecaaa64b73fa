import CurlHTTP
import QueryLanguage
import Synchronization

/// Where clauses already checked against one layer and written for it, by the text they were read from.
///
/// A worker sends the same few clauses to a layer over and over (a map view's filter with each new extent):
/// checking a clause against the layer's fields, writing it as ArcGIS SQL and form-encoding that text is the
/// same work each time. Re-measured on 2026-12-05 (docs/performance/README.md): 2.5% of a count query's CPU
/// samples without this cache, 0.2% with it, about 1 µs per query. Each ``LayerMetadata`` holds one of these,
/// so a reloaded layer (its fields may have changed) starts empty, and an entry never outlives the fields it
/// was checked against.
///
/// Bounded: clauses longer than ``maxClauseBytes`` are never kept (long `IN` lists are rarely repeated), and
/// when ``capacity`` entries are held the next new one empties the cache first. Failures are not kept: a
/// clause that does not fit the layer is checked again each time (and fails with its own message).
final class PreparedClauses: Sendable {
    /// One clause in the layer's terms.
    struct Prepared: Sendable {
        /// The clause as ``WhereClause/validated(against:)`` returns it for the layer.
        var validated: WhereClause
        /// Its ArcGIS SQL, form-encoded: the value of the `where` field.
        var encodedSQL: [UInt8]
    }

    /// At most this many clauses per layer.
    static let capacity = 64
    /// Only clauses of at most this many bytes are kept: 64 of them hold at most 64 × (text, its tree and its
    /// encoded SQL, up to three times the text) ≈ 0.3 MB per layer, whatever the requests send.
    static let maxClauseBytes = 1_024

    private let entries = Mutex<[String: Prepared]>([:])

    init() {}

    /// `clause` checked against `schema` and written for it (its date literals in `timeReference`, the layer's
    /// zone when it is not UTC): from the cache when its text was seen, else checked and written now (and kept
    /// when it qualifies). The cache belongs to one layer, so `timeReference` is the same on every call.
    func prepared(
        _ clause: WhereClause, schema: LayerSchema, timeReference: DateFieldsTimeReference? = nil
    ) throws(QueryLanguageError) -> Prepared {
        guard let text = clause.sourceText, text.utf8.count <= Self.maxClauseBytes else {
            return try Self.prepare(clause, schema: schema, timeReference: timeReference)
        }
        if let hit = entries.withLock({ $0[text] }) { return hit }
        let prepared = try Self.prepare(clause, schema: schema, timeReference: timeReference)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[text] = prepared
        }
        return prepared
    }

    /// The form-encoded SQL of `clause` when it is one ``prepared(_:schema:)`` returned (checked already), from
    /// the cache; nil when it is not there (too long, evicted since, or a clause not checked against this layer).
    func encodedSQL(of clause: WhereClause) -> [UInt8]? {
        guard let text = clause.sourceText, text.utf8.count <= Self.maxClauseBytes,
            let hit = entries.withLock({ $0[text] }), hit.validated == clause
        else { return nil }
        return hit.encodedSQL
    }

    /// How many clauses are held (for tests).
    var count: Int { entries.withLock { $0.count } }

    private static func prepare(
        _ clause: WhereClause, schema: LayerSchema, timeReference: DateFieldsTimeReference?
    ) throws(QueryLanguageError) -> Prepared {
        let validated = try clause.validated(against: schema)
        var encoded: [UInt8] = []
        HTTPRequest.appendFormEncoded(try sentSQL(of: validated, schema: schema, timeReference: timeReference), to: &encoded)
        return Prepared(validated: validated, encodedSQL: encoded)
    }

    /// The ArcGIS SQL sent for `validated` (a clause validated against `schema`): as it is for a UTC layer
    /// (`timeReference` nil), else with the date literals compared with date fields moved from UTC into the
    /// layer's wall time. ``Prepared/validated`` keeps the UTC meaning: the worker's own uses of the clause
    /// (building narrowed clauses, checks) read it in the contract's terms.
    static func sentSQL(
        of validated: WhereClause, schema: LayerSchema, timeReference: DateFieldsTimeReference?
    ) throws(QueryLanguageError) -> String {
        guard let timeReference else { return validated.arcGISSQL }
        return try validated.shiftingDateLiterals(schema: schema) { (utc) throws(QueryLanguageError) in
            try timeReference.localTime(of: utc)
        }.arcGISSQL
    }
}

/// ``PreparedClauses`` as a field of a value that is `Hashable`: the cache is not part of the value (two
/// metadata values that differ only in what they have cached are the same metadata).
struct PreparedClausesField: Sendable, Hashable {
    let clauses = PreparedClauses()

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
