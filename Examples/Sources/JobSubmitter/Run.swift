import FeatureQueryClient
import Foundation

/// The calls of one run, by ``Options/Mode``.
enum Run {
    /// Starts the run's calls and returns their reports, in job order, once every call has ended.
    static func start(_ options: Options, _ client: FeatureQueryClient) -> Task<[Report], Never> {
        func job(_ taskId: String) -> QueryJob {
            QueryJob(
                taskId: taskId, targets: [.arcgis(url: options.target)],
                query: Query(where: options.whereClause, result: options.result))
        }
        let timeout = options.timeout
        switch options.mode {
        case .jobs(let count):
            // One task per job: jobs of one task would supersede each other.
            let jobs = (1...count).map { job(count == 1 ? options.taskId : "\(options.taskId)-\($0)") }
            return Task {
                let results = await client.submit(jobs, timeout: timeout)
                return zip(jobs, results).map { Report(job: $0, result: $1) }
            }
        case .supersede:
            let (older, newer) = (job(options.taskId), job(options.taskId))
            // `Task.immediate` runs `submit` up to its first suspension, which is after the call is registered:
            // the older call is registered before the newer one exists. Both are registered before the client
            // runs, so the client answers the older one `superseded` without publishing it; a job already
            // published would be superseded by the worker instead, with the same outcome.
            let first = Task.immediate { await Report(job: older, result: submit(older, client, timeout), expected: .superseded) }
            let second = Task.immediate { await Report(job: newer, result: submit(newer, client, timeout)) }
            return Task { [await first.value, await second.value] }
        case .cancel:
            let job = job(options.taskId)
            return Task {
                await withTaskGroup(of: Report?.self) { group in
                    group.addTask { await Report(job: job, result: submit(job, client, timeout), expected: .cancelled) }
                    group.addTask { await cancelUntilEnded(job.key, client) }
                    let report = await group.next() ?? nil
                    group.cancelAll()
                    return report.map { [$0] } ?? []
                }
            }
        }
    }

    private static func submit(
        _ job: QueryJob, _ client: FeatureQueryClient, _ timeout: Duration
    ) async -> Result<QueryOutcome, FeatureQueryError> {
        do throws(FeatureQueryError) {
            return .success(try await client.submit(job, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    /// Publishes the task's cancel every half second until this task is cancelled (the call ended).
    ///
    /// A cancel stops only a job the worker already holds, and the client does not say when its job was
    /// published (it waits for the outcome reader first): a cancel sent too early finds nothing and the worker
    /// ignores it, so it is sent again rather than timed by a guess.
    private static func cancelUntilEnded(_ taskId: String, _ client: FeatureQueryClient) async -> Report? {
        while !Task.isCancelled {
            do throws(FeatureQueryError) {
                try await client.cancel(taskId: taskId)
            } catch {
                FileHandle.standardError.write(Data("job-submitter: the cancel failed: \(error)\n".utf8))
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
        return nil
    }
}
