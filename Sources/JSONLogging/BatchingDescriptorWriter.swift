#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes lines to a descriptor in batches: a line waits at most `window` for the lines logged after it, and
/// they all go out in one `write(2)`. A worker logs three lines per request; at thousands of requests a
/// second, one `write(2)` each was half of what logging cost.
///
/// Nothing is held back where it matters:
/// - an *urgent* line (warning and above: what precedes a failure or an exit) is written at once, after the
///   lines waiting before it, in the caller's thread;
/// - ``flush()`` writes what waits, and returns once it is written; the standard-output sink registers it
///   with `atexit`, so a process that exits (returning from `main`, `exit(_:)`) writes every line it logged;
/// - a process killed outright (`SIGKILL`, a crash) loses at most the info lines of the last `window`.
///
/// Lines stay whole and in order: they are appended whole under one lock, and batches are written in the
/// order they were taken, under a second lock held across the `write(2)`s (a partial write is continued
/// there). A line that can't be written (closed descriptor) is dropped, as ``FileDescriptorWriter`` does.
final class BatchingDescriptorWriter: @unchecked Sendable {
    // @unchecked: every mutable member is guarded by `state` (pending, flag) or `order` (the descriptor's
    // writes), which are pthread primitives allocated once and never freed (writers live for the process).
    private let descriptor: Int32
    private let window: Duration
    private let state = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let order = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Lines waiting, whole, in order. Guarded by `state`.
    private var pending: [UInt8] = []
    /// The buffer the last batch was written from, kept for its capacity. Guarded by `order`.
    private var spare: [UInt8] = []

    /// Lines wait at most `window` (2 ms by default) before the writer's thread writes them.
    init(descriptor: Int32, window: Duration = .milliseconds(2)) {
        self.descriptor = descriptor
        self.window = window
        pthread_mutex_init(state, nil)
        pthread_mutex_init(order, nil)
        pthread_cond_init(wake, nil)
        pending.reserveCapacity(1 << 16)
        spare.reserveCapacity(1 << 16)
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<BatchingDescriptorWriter>.fromOpaque(argument).takeRetainedValue().run()
        }, box.toOpaque())
        if started == 0 {
            pthread_detach(thread)
        } else {
            box.release()
        }
    }

    /// Queues the line; an urgent one is written now, with everything before it.
    func write(_ line: [UInt8], urgent: Bool) {
        pthread_mutex_lock(state)
        let wasEmpty = pending.isEmpty
        pending.append(contentsOf: line)
        pthread_mutex_unlock(state)
        if urgent {
            flush()
        } else if wasEmpty {
            pthread_cond_signal(wake)
        }
    }

    /// Writes every line queued so far; returns once they are written (or dropped).
    func flush() {
        pthread_mutex_lock(order)
        writeBatch()
        pthread_mutex_unlock(order)
    }

    /// The writer's thread: waits for a first line, lets the window pass, writes the batch.
    private func run() -> Never {
        while true {
            pthread_mutex_lock(state)
            while pending.isEmpty { pthread_cond_wait(wake, state) }
            pthread_mutex_unlock(state)
            let (seconds, attoseconds) = window.components
            var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&pause, &left) != 0, errno == EINTR { pause = left }
            flush()
        }
    }

    /// Takes the pending lines and writes them. Called with `order` held.
    private func writeBatch() {
        pthread_mutex_lock(state)
        swap(&pending, &spare)
        pthread_mutex_unlock(state)
        guard !spare.isEmpty else { return }
        spare.withUnsafeBytes { writeAll($0, to: descriptor) }
        spare.removeAll(keepingCapacity: true)
    }
}
