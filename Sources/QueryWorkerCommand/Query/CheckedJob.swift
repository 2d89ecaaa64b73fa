import FeatureQueryClient
import QueryLanguage
import RequestContract

/// A job checked before `query` publishes it, with the client library's validator: the worker's own decoder.
///
/// Unlike a service's client, `query` runs on a machine set up like a worker, so it also checks what depends on
/// the worker's configuration (its named queries, whether it takes free where clauses) and warns about it: the
/// worker the job reaches may be configured otherwise, so those are warnings, not errors. Credentials are not
/// checked at all (this machine does not have the worker's credentials file).
enum CheckedJob {
    /// The message value of `job`, after printing the warnings; a job a worker would reject is a usage error with
    /// the worker's code and message.
    static func value(of job: QueryJob, catalog: NamedQueryCatalog) throws -> [UInt8] {
        let (value, verdict): ([UInt8], IncomingMessage)
        do {
            (value, verdict) = try JobValidator(namedQueries: catalog).verdict(job)
        } catch {
            throw CommandFailure("\(error.message) (\(error.code))")
        }
        switch verdict {
        case .query, .cancel:
            return value
        case .rejected(let rejection) where JobValidator.configurationDependent.contains(rejection.code):
            printError("warning: \(rejection.message) (checked against this machine's settings; the worker decides)")
            return value
        case .rejected(let rejection):
            throw CommandFailure("a worker would reject this request (\(rejection.code)): \(rejection.message)")
        }
    }

    /// The contract's cancel message for `taskId`, as `cancel --json` prints it.
    static func cancelValue(taskId: String) throws -> [UInt8] {
        do {
            return try JobValidator().cancelValue(taskId: taskId)
        } catch {
            throw CommandFailure("\(error.message) (\(error.code))")
        }
    }
}
