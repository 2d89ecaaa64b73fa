internal import CCurl
internal import CCurlShims
import Foundation
import Logging
import Synchronization

/// One thread that drives one libcurl multi handle: every transfer of a client runs here, sharing its
/// connection cache, DNS cache and HTTP/2 connections.
///
/// The loop is libcurl's event-driven form: it waits in `epoll_wait` on the sockets libcurl asks to watch
/// (``CurlEventPoll``) and calls `curl_multi_socket_action` for each ready one and when libcurl's timer
/// expires, so the work per wakeup follows the sockets that are ready, not the transfers in flight.
///
/// Other threads never touch the multi handle; they queue commands and ring the poll's eventfd. Removing an
/// easy handle aborts its transfer at once, which is how cancellation stops a transfer mid-flight.
///
/// Every request submits at least one command, from many threads at once, so submitting is kept cheap: the
/// lock is held only to queue the command, the ring (a write to the eventfd) is sent after it is released,
/// and only when the loop sleeps in `epoll_wait`. An awake loop checks the queue before it sleeps.
///
/// The loop is also a `TaskExecutor` (`CurlMultiLoop+Executor.swift`): tasks that prefer it run their jobs on
/// this thread between turns of the loop, so a response resumes its caller without waking another thread,
/// and the caller's next request is queued without ringing the eventfd. Its jobs are queued with the
/// commands, under the same lock and the same ring.
///
/// Easy handles are pooled. A handle whose last transfer was a plain GET keeps its options, and the next
/// plain GET with the same settings sets only what differs per request (``CurlTransfer/Profile``), instead
/// of `curl_easy_reset` and some thirty options again.
final class CurlMultiLoop: @unchecked Sendable {
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
    }

    enum Phase { case idle, running, stopping, stopped }

    struct State {
        var phase = Phase.idle
        var commands: [Command] = []
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        /// Jobs of tasks that prefer this loop as their executor, enqueued from other threads.
        var jobs: [UnownedJob] = []
        /// A wakeup was sent and the loop has not taken the commands yet: one is enough.
        var wakeupPending = false
        /// The loop found no commands and is in (or about to enter) `epoll_wait`: a new command needs a
        /// wakeup. While false, the loop looks at the queue again before it sleeps.
        var sleeping = false
    }

    private let multi: UnsafeMutableRawPointer
    let poll: CurlEventPoll
    let state = Mutex(State())
    private let logger: Logger
    /// Easy handles alive (in transfers or pooled): a test checks it returns to its baseline
    /// (`HTTPClient.statistics`, in `ForTesting/`).
    let liveHandles = Atomic<Int>(0)
    let activeTransfers = Atomic<Int>(0)
    /// Wakeups being sent outside the lock. Counted under the lock while the loop runs; the loop frees the
    /// multi handle only after setting `.stopped` under it (so no new one starts) and seeing this reach 0.
    let wakeupsInFlight = Atomic<Int>(0)
    /// The loop thread's `pthread_self()` while it runs (0 before): jobs it enqueues itself skip the lock.
    let loopThread = Atomic<UInt>(0)
    /// Jobs enqueued on the loop thread (by the jobs it runs and the responses it completes): loop only.
    var localJobs: [UnownedJob] = []

    // loop thread only
    private var active: [ObjectIdentifier: CurlTransfer] = [:]
    /// Idle easy handles, each with the profile its options still hold (`nil`: reset to libcurl's defaults).
    private var pool: [(handle: UnsafeMutableRawPointer, profile: CurlTransfer.Profile?)] = []
    private let poolLimit = 256

    init(configuration: HTTPClientConfiguration, logger: Logger) throws(HTTPError) {
        guard let multi = curl_multi_init() else {
            throw HTTPError(code: .other, message: "curl_multi_init failed")
        }
        do {
            poll = try CurlEventPoll()
            try poll.install(on: multi)
        } catch {
            curl_multi_cleanup(multi)
            throw error
        }
        self.multi = multi
        self.logger = logger
        _ = qw_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConnections)
        _ = qw_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = qw_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxConnections)
        _ = qw_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, configuration.enableHTTP2 ? Int(CURLPIPE_MULTIPLEX) : 0)
    }

    /// Queues a command, starting the loop thread on first use. Returns `false` once the loop has stopped.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        queue { $0.commands.append(command) }
    }

    /// Adds to the loop's queues with `append` (under the lock) while the loop runs or has yet to start:
    /// starts the thread on first use and rings the loop only when it sleeps, outside the lock. Returns
    /// `false`, appending nothing, once the loop is stopping.
    func queue(_ append: (inout State) -> Void) -> Bool {
        let (accepted, start, wake) = state.withLock { state -> (Bool, Bool, Bool) in
            guard state.phase == .idle || state.phase == .running else { return (false, false, false) }
            append(&state)
            let start = state.phase == .idle
            state.phase = .running
            guard state.sleeping, !state.wakeupPending else { return (true, start, false) }
            state.wakeupPending = true
            wakeupsInFlight.add(1, ordering: .relaxed)
            return (true, start, true)
        }
        if wake {
            poll.ring()
            wakeupsInFlight.subtract(1, ordering: .releasing)
        }
        if start { startThread() }
        return accepted
    }

    func startThread() {
        let thread = Thread { self.loop() }
        thread.name = "curl-multi"
        thread.start()
    }

    /// Asks the loop to stop without waiting (from `deinit` of the client).
    func requestStop() {
        let neverStarted = state.withLock { state -> Bool in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return true
            case .running:
                state.phase = .stopping
                poll.ring()
                return false
            case .stopping, .stopped:
                return false
            }
        }
        if neverStarted { cleanup() }
    }

    /// Stops the loop: every transfer still running fails with a `shutdown` error.
    func shutdown() async {
        requestStop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.phase == .stopped { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    deinit {
        // Reached only when the loop thread has exited (it holds `self`) or never started.
        cleanup()
    }

    private let cleanedUp = Atomic<Bool>(false)
    private func cleanup() {
        guard !cleanedUp.exchange(true, ordering: .acquiringAndReleasing) else { return }
        curl_multi_cleanup(multi)
        poll.closeDescriptors()
    }

    // MARK: Loop thread

    private func loop() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        // Swapped with the queues, so no array is reallocated per turn.
        var commands: [Command] = []
        var jobs: [UnownedJob] = []
        while true {
            state.withLock { state in
                swap(&state.jobs, &jobs)
                state.wakeupPending = false
                state.sleeping = false
            }
            runJobs(&jobs)
            let phase = state.withLock { state in
                swap(&state.commands, &commands)
                return state.phase
            }
            for command in commands { handle(command) }
            commands.removeAll(keepingCapacity: true)
            if phase == .stopping { break }
            // Adding a handle sets libcurl's timer to 0: the transfer starts here.
            if poll.timerExpired() {
                socketAction(CURL_SOCKET_TIMEOUT, 0)
                drainCompleted()
            }
            let localWork = !localJobs.isEmpty
            let sleep = state.withLock { state in
                guard !localWork, state.commands.isEmpty, state.jobs.isEmpty, state.phase == .running else { return false }
                state.sleeping = true
                return true
            }
            // Awake with commands or jobs waiting, the loop still serves ready sockets (without sleeping), so
            // a steady stream of new requests cannot starve the transfers already running.
            poll.wait(limitMilliseconds: sleep ? 1000 : 0) { ready in socketAction(ready.socket, ready.mask) }
            drainCompleted()
        }
        stopAll()
        forwardRemainingJobs(jobs)
    }

    private func socketAction(_ socket: curl_socket_t, _ mask: Int32) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, mask, &running)
    }

    private func handle(_ command: Command) {
        switch command {
        case .add(let transfer):
            guard !transfer.isCancelled else {
                transfer.sink.complete(.failure(CancellationError()))
                return
            }
            start(transfer)
        case .cancel(let transfer):
            transfer.markCancelled()
            guard let easy = transfer.easy, active.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { return }
            curl_multi_remove_handle(multi, easy)  // aborts the transfer; its connection is closed
            transfer.detach()
            destroy(easy)
            activeTransfers.subtract(1, ordering: .relaxed)
            transfer.sink.complete(.failure(CancellationError()))
        }
    }

    private func start(_ transfer: CurlTransfer) {
        let easy: UnsafeMutableRawPointer
        var kept: CurlTransfer.Profile?
        if let pooled = pool.popLast() {
            easy = pooled.handle
            kept = pooled.profile
        } else if let fresh = curl_easy_init() {
            liveHandles.add(1, ordering: .relaxed)
            easy = fresh
        } else {
            transfer.sink.complete(.failure(HTTPError(code: .other, message: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        do {
            if let kept, kept == transfer.profile {
                try transfer.configureRequest(easy)
            } else {
                if kept != nil { curl_easy_reset(easy) }
                try transfer.configure(easy)
            }
        } catch {
            transfer.detach()
            destroy(easy)
            transfer.sink.complete(.failure(error))
            return
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            transfer.detach()
            destroy(easy)
            let text = curl_multi_strerror(added).map { String(cString: $0) } ?? "error"
            transfer.sink.complete(.failure(HTTPError(code: .other, message: "curl_multi_add_handle: \(text)")))
            return
        }
        active[ObjectIdentifier(transfer)] = transfer
        activeTransfers.add(1, ordering: .relaxed)
    }

    private func drainCompleted() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var opaque: UnsafeMutableRawPointer?
            _ = qw_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &opaque)
            curl_multi_remove_handle(multi, easy)
            guard let opaque else {
                destroy(easy)
                continue
            }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(opaque).takeUnretainedValue()
            guard active.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { continue }
            activeTransfers.subtract(1, ordering: .relaxed)
            let outcome = transfer.outcome(code)
            let profile = code == CURLE_OK ? transfer.profile : nil
            transfer.detach()
            recycle(easy, keeping: profile)
            transfer.sink.complete(outcome.mapError { $0 })
        }
    }

    /// Pools a handle after a transfer that ended normally; with `profile`, its options stay for the next
    /// transfer of that profile, less the pointers into the finished transfer.
    private func recycle(_ easy: UnsafeMutableRawPointer, keeping profile: CurlTransfer.Profile?) {
        guard pool.count < poolLimit else { return destroy(easy) }
        if profile == nil {
            curl_easy_reset(easy)
        } else {
            CurlTransfer.forgetRequest(easy)
        }
        pool.append((easy, profile))
    }

    private func destroy(_ easy: UnsafeMutableRawPointer) {
        curl_easy_cleanup(easy)
        liveHandles.subtract(1, ordering: .relaxed)
    }

    private func stopAll() {
        for transfer in active.values {
            if let easy = transfer.easy {
                curl_multi_remove_handle(multi, easy)
                transfer.detach()
                destroy(easy)
            }
            transfer.sink.complete(.failure(HTTPError(code: .shutdown, message: "the HTTP client was shut down")))
        }
        activeTransfers.store(0, ordering: .relaxed)
        active.removeAll()
        pool.forEach { destroy($0.handle) }
        pool.removeAll()
        let (commands, waiters) = state.withLock { state in
            state.phase = .stopped
            defer {
                state.commands.removeAll()
                state.stopWaiters.removeAll()
            }
            return (state.commands, state.stopWaiters)
        }
        // After `.stopped` was set under the lock no wakeup starts; one already sending finishes first.
        while wakeupsInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        cleanup()
        for case .add(let transfer) in commands {
            transfer.sink.complete(.failure(HTTPError(code: .shutdown, message: "the HTTP client was shut down")))
        }
        waiters.forEach { $0.resume() }
        logger.debug("HTTP client loop stopped")
    }
}
