import QueryOutcomes

extension FeatureQueryClient {
    /// The client's pending calls: which call waits for which requestId, which job of a task is the newest,
    /// which jobs may be published now (back-pressure) and which wait for a slot, and the outcome reader's state.
    ///
    /// A value type with no I/O: every event is a `mutating func` returning the ``Effect``s its owner executes
    /// outside the lock (publish a message, resume a caller). Generic over the caller's `Waiter` (a continuation
    /// in the client, a number in the tests) and the published `Payload`.
    struct StateMachine<Waiter, Payload> {
        /// What the owner does after an event, in order.
        enum Effect {
            case publish(requestId: String, Payload)
            case resume(Waiter, Result<QueryOutcome, FeatureQueryError>)
        }

        private enum Reader {
            /// The start offsets are not resolved yet: nothing may be published, or its outcome could be missed.
            case starting
            case reading
            case stopped(FeatureQueryError)
        }

        private struct Call {
            var taskId: String
            var waiter: Waiter
            var payload: Payload
            /// Published (or being published): its outcome may come; counts towards the in-flight limit.
            var published: Bool
        }

        private var reader = Reader.starting
        private var calls: [String: Call] = [:]
        /// Calls not yet published, oldest first.
        private var queue: [String] = []
        private var publishedCount = 0
        /// The newest requestId of each task with a call.
        private var latest: [String: String] = [:]
        private var collector = OutcomeCollector(wanted: nil)
        let maxInFlight: Int

        init(maxInFlight: Int) {
            self.maxInFlight = max(1, maxInFlight)
        }

        /// How many calls wait for an outcome or a slot.
        var pendingCount: Int { calls.count }

        /// A new call. A task's older call that is still queued is answered `superseded` here without being
        /// published (the worker would only supersede it); one already published is superseded by the worker.
        mutating func submit(requestId: String, taskId: String, waiter: Waiter, payload: Payload) -> [Effect] {
            if case .stopped(let error) = reader { return [.resume(waiter, .failure(error))] }
            guard calls[requestId] == nil else {
                return [.resume(waiter, .failure(FeatureQueryError(
                    .duplicateRequest, "another call of this client waits for requestId \(requestId); use a new one")))]
            }
            var effects: [Effect] = []
            if let older = latest[taskId], let call = calls[older], !call.published {
                remove(older)
                effects.append(.resume(call.waiter, .success(QueryOutcome(
                    requestId: older, taskId: taskId, status: .superseded,
                    error: FeatureQueryError(.init(rawValue: "superseded"), "a newer job for task \(taskId) replaced this one before it was published"),
                    supersededBy: requestId))))
            }
            latest[taskId] = requestId
            calls[requestId] = Call(taskId: taskId, waiter: waiter, payload: payload, published: false)
            queue.append(requestId)
            return effects + promote()
        }

        /// The outcome reader has fixed its start offsets: queued calls may be published.
        mutating func readerStarted() -> [Effect] {
            guard case .starting = reader else { return [] }
            reader = .reading
            return promote()
        }

        /// The reader stopped (shutdown or a Kafka failure): every call ends with `error`, later ones at once.
        mutating func readerStopped(_ error: FeatureQueryError) -> [Effect] {
            if case .stopped = reader { return [] }
            reader = .stopped(error)
            let waiters = calls.values.map(\.waiter)
            calls = [:]
            queue = []
            latest = [:]
            publishedCount = 0
            return waiters.map { .resume($0, .failure(error)) }
        }

        /// Publishing a call's job failed: the call ends with the error.
        mutating func publishFailed(requestId: String, _ error: FeatureQueryError) -> [Effect] {
            guard let call = calls[requestId] else { return [] }
            remove(requestId)
            return [.resume(call.waiter, .failure(error))] + promote()
        }

        /// The call's time is up.
        mutating func timedOut(requestId: String) -> [Effect] {
            end(requestId, FeatureQueryError(.timeout, "no outcome for \(requestId) within the call's timeout", isRetryable: true))
        }

        /// The calling task was cancelled.
        mutating func callCancelled(requestId: String) -> [Effect] {
            end(requestId, FeatureQueryError(.callCancelled, "the call waiting for \(requestId) was cancelled"))
        }

        /// One outcome message read. Another client's outcome (its `request-id` header names no call of ours)
        /// is skipped unparsed, as is a copy of an outcome already delivered (its call is gone); a split result's
        /// parts are held until all arrived, in any order (``OutcomeCollector``), a part held twice counted once.
        mutating func received(requestIdHeader: String?, value: [UInt8]) -> [Effect] {
            if let id = requestIdHeader, calls[id]?.published != true { return [] }
            let completed: OutcomeCollector.Completed?
            do {
                completed = try collector.add(value)
            } catch {
                guard let id = requestIdHeader else { return [] }
                return end(id, FeatureQueryError(.malformedOutcome, "the outcome of \(id) could not be read: \(error)"))
            }
            guard let completed, let id = completed.outcome.requestId else { return [] }
            guard let call = calls[id], call.published else {
                collector.forget(id)  // not ours (a message without the header): nothing to keep of it
                return []
            }
            remove(id)
            let result = Result { () throws(FeatureQueryError) in try QueryOutcome(completed) }
            return [.resume(call.waiter, result)] + promote()
        }

        private mutating func end(_ requestId: String, _ error: FeatureQueryError) -> [Effect] {
            guard let call = calls[requestId] else { return [] }
            remove(requestId)
            return [.resume(call.waiter, .failure(error))] + promote()
        }

        private mutating func remove(_ requestId: String) {
            guard let call = calls.removeValue(forKey: requestId) else { return }
            // A later copy of its outcome is ignored by the header check (no call waits for it), so nothing need
            // be remembered of it: held parts and the delivered id go, and the machine does not grow with use.
            collector.forget(requestId)
            if call.published {
                publishedCount -= 1
            } else {
                queue.removeAll { $0 == requestId }
            }
            if latest[call.taskId] == requestId { latest[call.taskId] = nil }
        }

        /// Publishes queued calls while the reader reads and the in-flight limit allows.
        private mutating func promote() -> [Effect] {
            guard case .reading = reader else { return [] }
            var effects: [Effect] = []
            while publishedCount < maxInFlight, !queue.isEmpty {
                let id = queue.removeFirst()
                guard var call = calls[id] else { continue }
                call.published = true
                calls[id] = call
                publishedCount += 1
                effects.append(.publish(requestId: id, call.payload))
            }
            return effects
        }
    }
}
