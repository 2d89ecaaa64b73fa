import FeatureQuerySupport
package import QueryLanguage
package import RequestContract

/// Checks a job with the worker's own request decoder before it is published, so the client never publishes
/// what a worker would reject: one set of rules, the worker's, not a copy that could drift from it.
///
/// What depends on the configuration of the worker the job reaches is left to that worker: its named queries,
/// whether it takes free where clauses, its credentials file. Those rejections arrive as the outcome.
package struct JobValidator: Sendable {
    private let decoder: RequestDecoder

    /// A validator that leaves named queries to the worker (`namedQueries` nil), or checks them against an
    /// operator's catalog (`query-worker query` on a machine set up for a worker, which warns about them).
    package init(namedQueries: NamedQueryCatalog? = nil) {
        decoder = RequestDecoder(namedQueries: namedQueries ?? JobValidator.catalog)
    }

    /// Any name passes the local check of `namedWhere`; the worker's catalog decides.
    private static let catalog: NamedQueryCatalog = {
        do {
            return try NamedQueryCatalog(includeBuiltIns: false)
        } catch {
            // An empty catalog has no clause to fail on; this cannot be reached.
            preconditionFailure("an empty named query catalog was refused: \(error)")
        }
    }()

    /// Rejections that depend on the configuration of the worker the job reaches, not on the job alone.
    package static let configurationDependent: Set<ContractError.Code> = [.unknownNamedQuery, .freeClausesDisabled]

    /// The message value for `job` and the worker's decoder's verdict on it.
    package func verdict(_ job: QueryJob) throws(FeatureQueryError) -> (value: [UInt8], verdict: IncomingMessage) {
        let value = try job.messageValue()
        return (value, decoder.decode(value, key: Array(job.key.utf8), receivedAt: WallClock.nowMilliseconds()))
    }

    /// The message value for `job`, or the worker's rejection as a ``FeatureQueryError`` with its code.
    func check(_ job: QueryJob) throws(FeatureQueryError) -> [UInt8] {
        let (value, verdict) = try verdict(job)
        switch verdict {
        case .query:
            return value
        case .cancel:
            throw FeatureQueryError(.encoding, "the job was read as a cancel message")
        case .rejected(let rejection) where Self.configurationDependent.contains(rejection.code):
            return value
        case .rejected(let rejection):
            throw FeatureQueryError(
                .init(rawValue: rejection.code.rawValue), "a worker would reject this job: \(rejection.message)")
        }
    }

    /// The contract's cancel message for `taskId`, checked as the worker reads it.
    package func cancelValue(taskId: String) throws(FeatureQueryError) -> [UInt8] {
        var writer = JSONWriter(capacity: taskId.utf8.count + 32)
        writer.value(.object(["cancel": .bool(true), "taskId": .string(taskId)]))
        let value = writer.bytes
        switch decoder.decode(value, key: Array(taskId.utf8), receivedAt: WallClock.nowMilliseconds()) {
        case .cancel:
            return value
        case .query:
            throw FeatureQueryError(.encoding, "the cancel was read as a job")
        case .rejected(let rejection):
            throw FeatureQueryError(.init(rawValue: rejection.code.rawValue), "a worker would reject this cancel: \(rejection.message)")
        }
    }
}
