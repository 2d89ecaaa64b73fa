import FeatureQueryClient

/// How one job ended, and the line printed for it: `key=value` words after the status, so that a person and
/// a script (the repository's test of this example) read the same line.
struct Report {
    var job: QueryJob
    var result: Result<QueryOutcome, FeatureQueryError>
    /// The status this run asked for (`superseded` with `--supersede`, `cancelled` with `--cancel`): not an
    /// error here, although the worker reports it with an error object.
    var expected: QueryOutcome.Status?

    init(job: QueryJob, result: Result<QueryOutcome, FeatureQueryError>, expected: QueryOutcome.Status? = nil) {
        (self.job, self.result, self.expected) = (job, result, expected)
    }

    /// How many ids a line shows before it says how many more there are.
    static let shownIds = 10

    /// `succeeded request=… task=… layer=URL count=N ids=1,2,…`, or the worker's error with its code and
    /// whether sending the job again may help; a thrown error is `client-error`.
    var line: String {
        switch result {
        case .failure(let error):
            return Self.line(for: error, requestId: job.requestId, taskId: job.key)
        case .success(let outcome):
            var words = [outcome.status.rawValue, "request=\(outcome.requestId)", "task=\(outcome.taskId ?? job.key)"]
            for layer in outcome.layers {
                words.append("layer=\(layer.url)")
                if let count = layer.count { words.append("count=\(count)") }
                if let ids = layer.objectIds {
                    let shown = ids.prefix(Self.shownIds).map(String.init).joined(separator: ",")
                    words.append("ids=\(shown)" + (ids.count > Self.shownIds ? ",…(\(ids.count) in all)" : ""))
                }
                if let features = layer.featureCollection { words.append("geojson-bytes=\(features.count)") }
                if let error = layer.error { words.append("layer-error=\(error.code) retryable=\(error.isRetryable)") }
            }
            if let error = outcome.error { words.append("error=\(error.code) retryable=\(error.isRetryable)") }
            if let newer = outcome.supersededBy { words.append("superseded-by=\(newer)") }
            return words.joined(separator: " ")
        }
    }

    /// The line of a call that threw; the message last, since it has spaces.
    static func line(for error: FeatureQueryError, requestId: String, taskId: String) -> String {
        "client-error request=\(requestId) task=\(taskId) error=\(error.code) retryable=\(error.isRetryable) "
            + "fatal=\(error.isFatal) message=\(error.message)"
    }

    /// Any thrown error wins (the run could not learn every outcome), then any error outcome the run did not
    /// ask for; `partial` is a success (its failed layers carry their errors in the line).
    static func exitStatus(_ reports: [Report]) -> JobSubmitter.ExitStatus {
        var status = JobSubmitter.ExitStatus.succeeded
        for report in reports {
            switch report.result {
            case .failure:
                return .clientError
            case .success(let outcome):
                if ![.succeeded, .partial, report.expected].contains(outcome.status) { status = .errorOutcome }
            }
        }
        return status
    }
}
