import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The loop as a task executor: a task that prefers it (`withTaskExecutorPreference(client.taskExecutor)`)
/// runs on the loop thread between turns of the loop, like a task on a NIO event loop.
///
/// Why: a request's life is a hand-off to the loop thread and back. On the cooperative pool each response
/// resumes its caller through a global enqueue and, often, a futex wake of a sleeping pool thread; each new
/// request rings the loop's eventfd. On the loop, a response's continuation is queued without a lock on a
/// list the loop runs on its next turn, and a request submitted from a job needs no ring: the loop is awake.
///
/// Jobs enqueued from other threads go through the command lock and ring the loop only when it sleeps.
/// After the loop stops, jobs go to the global concurrent executor, so a task that still prefers a stopped
/// client keeps running (on the pool).
extension CurlMultiLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
        if isLoopThread {
            localJobs.append(job)
            return
        }
        let accepted = queue { $0.jobs.append(job) }
        if !accepted { globalConcurrentExecutor.enqueue(job) }
    }

    /// Whether the caller runs on the loop thread (a job of a task that prefers this loop, or a callback).
    var isLoopThread: Bool {
        let loop = loopThread.load(ordering: .relaxed)
        return loop != 0 && pthread_equal(pthread_t(loop), pthread_self()) != 0
    }

    /// Runs the jobs taken from the queue, then those the loop thread enqueued itself before this turn. Jobs
    /// that the jobs enqueue wait for the next turn, after the sockets, so a task that never suspends on I/O
    /// cannot starve the transfers.
    func runJobs(_ jobs: inout [UnownedJob]) {
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
        jobs.removeAll(keepingCapacity: true)
        guard !localJobs.isEmpty else { return }
        var batch: [UnownedJob] = []
        swap(&batch, &localJobs)
        for job in batch { job.runSynchronously(on: executor) }
        batch.removeAll(keepingCapacity: true)
        if localJobs.isEmpty { swap(&batch, &localJobs) }  // keep the capacity
    }

    /// After the loop stopped: every job still queued runs on the global executor instead.
    func forwardRemainingJobs(_ taken: [UnownedJob]) {
        loopThread.store(0, ordering: .relaxed)
        let queued = state.withLock { state -> [UnownedJob] in
            defer { state.jobs.removeAll() }
            return state.jobs
        }
        for job in taken + localJobs + queued { globalConcurrentExecutor.enqueue(job) }
        localJobs.removeAll()
    }
}
