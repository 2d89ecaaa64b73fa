import Synchronization

/// A cache of values loaded over the network, with expiry, where concurrent callers asking for the same key
/// share one load.
///
/// Waiting is cancellable: a cancelled caller leaves at once, and when the last waiter has left, the load
/// itself is cancelled. Failures are not cached; the next caller loads again.
///
/// Expired values are dropped every ``sweepInterval`` stores. Before, a value stayed until its key was asked for
/// again, so a worker asked about ever new layers (requests name any service URL) kept the metadata of every
/// layer it had ever queried.
package final class ExpiringCache<Value: Sendable>: Sendable {
    private enum Entry {
        case loaded(Value, expires: ContinuousClock.Instant)
        case loading(Loading)
    }

    private struct Loading {
        var generation: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var nextID: UInt64 = 0
        var storesSinceSweep = 0

        /// Counts a store, and every ``sweepInterval`` stores drops the values expired by `now`.
        mutating func stored(now: ContinuousClock.Instant) {
            storesSinceSweep += 1
            guard storesSinceSweep >= ExpiringCache.sweepInterval else { return }
            storesSinceSweep = 0
            entries = entries.filter { entry in
                if case .loaded(_, let expires) = entry.value { return now < expires }
                return true
            }
        }
    }

    /// Stores between two sweeps of expired values: a sweep reads every entry, so it runs once per so many.
    package static var sweepInterval: Int { 64 }

    /// Runs `body` under the lock and reports the change in the number of entries to the metrics: what
    /// `query_worker_metadata_cache_entries` shows (a cache that only grows is a leak).
    private func changing<T>(_ body: (inout State) -> T) -> T {
        let (result, delta) = state.withLock { state -> (T, Int) in
            let before = state.entries.count
            let result = body(&state)
            return (result, state.entries.count - before)
        }
        if delta != 0 { metrics?.entriesChanged(by: delta) }
        return result
    }

    private let state = Mutex(State())
    private let ttl: Duration
    /// Where lookups are counted (hit, miss, shared); nil for a cache that is not metadata (token sites).
    private let metrics: MetadataCacheMetrics?

    package init(ttl: Duration, metrics: MetadataCacheMetrics? = nil) {
        self.ttl = ttl
        self.metrics = metrics
    }

    /// The value when it is loaded and fresh, else nil (then ``value(for:load:)`` loads or waits). Throws
    /// `CancellationError` for a cancelled task, as ``value(for:load:)`` does.
    ///
    /// Every query asks for its layer's metadata, nearly always cached: this answers under one lock, with
    /// neither a continuation nor the caller's `load` closure (allocated by the caller even when unused).
    package func freshValue(for key: String) throws -> Value? {
        // Cancellation is checked before the lock, not under it: no `CacheStep` to build (this class is not
        // specialised across modules, and each generic value it builds costs a metadata lookup).
        if Task.isCancelled { throw CancellationError() }
        let value = state.withLock { state -> Value? in
            guard case .loaded(let value, let expires)? = state.entries[key], ContinuousClock.now < expires else { return nil }
            return value
        }
        if value != nil { metrics?.hit() }
        return value
    }

    /// ``freshValue(for:)`` with the value's expiry: for a caller that keeps a copy of fresh values in types of
    /// its own (this class is generic, and its calls from other modules are not specialised).
    package func freshEntry(for key: String) throws -> (value: Value, expires: ContinuousClock.Instant)? {
        if Task.isCancelled { throw CancellationError() }
        let entry = state.withLock { state -> (value: Value, expires: ContinuousClock.Instant)? in
            guard case .loaded(let value, let expires)? = state.entries[key], ContinuousClock.now < expires else { return nil }
            return (value, expires)
        }
        if entry != nil { metrics?.hit() }
        return entry
    }

    package func value(for key: String, load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let value = try freshValue(for: key) { return value }
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let step = changing { state -> CacheStep<Value> in
                    if Task.isCancelled { return .cancelled }
                    switch state.entries[key] {
                    case .loaded(let value, let expires) where ContinuousClock.now < expires:
                        return .done(value)
                    case .loading(var loading):
                        loading.waiters[waiter] = continuation
                        state.entries[key] = .loading(loading)
                        return .wait
                    default:
                        state.nextID += 1
                        let generation = state.nextID
                        state.entries[key] = .loading(Loading(generation: generation, waiters: [waiter: continuation]))
                        return .start(generation)
                    }
                }
                count(step)
                switch step {
                case .done(let value): continuation.resume(returning: value)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                case .start(let generation): start(key: key, generation: generation, load: load)
                }
            }
        } onCancel: {
            leave(key: key, waiter: waiter)
        }
    }

    /// Counts a lookup that went past the fresh-value fast path (which counts its own hits).
    private func count(_ step: CacheStep<Value>) {
        guard let metrics else { return }
        switch step {
        case .done: metrics.hit()
        case .wait: metrics.shared()
        case .start: metrics.miss()
        case .cancelled: break
        }
    }

    /// Values and loads held now, expired ones not yet swept included.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Drops every cached value, loads in progress excepted (for tests: an engine's `clearMetadataCache()`).
    package func removeAll() {
        changing { state in
            state.entries = state.entries.filter { if case .loading = $0.value { true } else { false } }
        }
    }

    private func start(key: String, generation: UInt64, load: @escaping @Sendable () async throws -> Value) {
        let ttl = self.ttl
        // Shared by every waiter: its lines belong to no single request (see RequestLogContext).
        let task = RequestLogContext.withoutRequest { Task {
            let result: Result<Value, any Error>
            do { result = .success(try await load()) } catch { result = .failure(error) }
            let waiters = self.changing { state -> [CheckedContinuation<Value, any Error>] in
                guard case .loading(let loading) = state.entries[key], loading.generation == generation else { return [] }
                switch result {
                case .success(let value):
                    let now = ContinuousClock.now
                    state.entries[key] = .loaded(value, expires: now + ttl)
                    state.stored(now: now)
                case .failure: state.entries[key] = nil
                }
                return Array(loading.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        } }
        let orphaned = state.withLock { state -> Bool in
            // Gone already: every waiter left (cancel the load) or it finished (cancelling is harmless).
            guard case .loading(var loading) = state.entries[key], loading.generation == generation else { return true }
            loading.task = task
            state.entries[key] = .loading(loading)
            return loading.waiters.isEmpty
        }
        if orphaned { task.cancel() }
    }

    private func leave(key: String, waiter: UInt64) {
        let (continuation, task) = changing { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard case .loading(var loading) = state.entries[key],
                let continuation = loading.waiters.removeValue(forKey: waiter)
            else { return (nil, nil) }
            if loading.waiters.isEmpty {
                state.entries[key] = nil
                return (continuation, loading.task)
            }
            state.entries[key] = .loading(loading)
            return (continuation, nil)
        }
        task?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}

/// What a caller of ``ExpiringCache/value(for:load:)`` does once the lock is released.
private enum CacheStep<Value> {
    case done(Value)
    case wait
    case start(UInt64)
    case cancelled
}
