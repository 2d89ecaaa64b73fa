import FeatureQuerySupport
import Kafka
import Synchronization

extension FeatureQueryClient {
    /// Publishes `job` keyed by its taskId and returns its outcome.
    ///
    /// The job is checked first with the worker's own decoder: a job a worker would reject is thrown here with
    /// the worker's code (`invalid_where`, `invalid_value`, …) and never published. A newer job for the same
    /// task supersedes this one: this call then returns an outcome with status `superseded`.
    ///
    /// - Parameter timeout: how long to wait for the outcome (the configuration's default when `nil`). When it
    ///   passes the call throws ``FeatureQueryError/Code/timeout``; the job is not cancelled at the worker (use
    ///   ``cancel(taskId:)``). Cancelling the calling task ends the call the same way with
    ///   ``FeatureQueryError/Code/callCancelled``.
    public func submit(_ job: QueryJob, timeout: Duration? = nil) async throws(FeatureQueryError) -> QueryOutcome {
        let value = try validator.check(job)
        let publication = Publication(requestId: job.requestId, key: job.key, value: value)
        let limit = timeout ?? configuration.defaultTimeout
        let result = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Cancelled when the outcome came first; an early wake-up is then harmless (the call is gone).
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                self.execute(self.state.withLock { $0.timedOut(requestId: job.requestId) })
            }
            let result = await wait(for: job, publication)
            group.cancelAll()
            endProgress(of: job.requestId)
            return result
        }
        return try result.get()
    }

    /// Publishes every job and returns their outcomes in the same order; each may fail on its own.
    public func submit(_ jobs: [QueryJob], timeout: Duration? = nil) async -> [Result<QueryOutcome, FeatureQueryError>] {
        await withTaskGroup(of: (Int, Result<QueryOutcome, FeatureQueryError>).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask {
                    do throws(FeatureQueryError) {
                        return (index, .success(try await self.submit(job, timeout: timeout)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<QueryOutcome, FeatureQueryError>?](repeating: nil, count: jobs.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0 ?? .failure(FeatureQueryError(.callCancelled, "the call ended without an outcome")) }
        }
    }

    /// Publishes `job` keyed by its taskId and returns once the broker has it, without waiting for its outcome:
    /// for jobs whose outcome another part of the system reads (or nobody). Checked first as ``submit(_:timeout:)``
    /// checks it. Works with a client that does not read outcomes.
    public func publish(_ job: QueryJob) async throws(FeatureQueryError) {
        try await send(key: job.key, value: try validator.check(job), what: "the job")
    }

    /// Publishes the contract's cancel for `taskId`: the workers answer the task's jobs in flight `cancelled`
    /// (their calls return that outcome); a task with nothing in flight is left alone.
    public func cancel(taskId: String) async throws(FeatureQueryError) {
        try await send(key: taskId, value: try validator.cancelValue(taskId: taskId), what: "the cancel")
    }

    /// Registers the call and waits for its outcome; the calling task's cancellation ends it.
    private func wait(for job: QueryJob, _ publication: Publication) async -> Result<QueryOutcome, FeatureQueryError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                execute(state.withLock {
                    $0.submit(requestId: job.requestId, taskId: job.key, waiter: continuation, payload: publication)
                })
                // A cancellation before the call was registered found nothing to end: end it now.
                if Task.isCancelled { execute(state.withLock { $0.callCancelled(requestId: job.requestId) }) }
            }
        } onCancel: {
            execute(state.withLock { $0.callCancelled(requestId: job.requestId) })
        }
    }
}
