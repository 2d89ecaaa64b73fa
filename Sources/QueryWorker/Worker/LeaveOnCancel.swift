import Synchronization

/// Runs `work` in a task of its own and waits for it, but returns at once when the waiting task is
/// cancelled, leaving `work` to finish alone. For calls blocked in librdkafka (a lag lookup, a connectivity
/// probe: bounded, but seconds while the cluster is down) that must not hold up a shutdown's task group.
func leaveOnCancel(_ work: @escaping @Sendable () async -> Void) async {
    let resumer = ResumeOnce()
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            resumer.wait(continuation)
            Task {
                await work()
                resumer.resume()
            }
        }
    } onCancel: {
        resumer.resume()
    }
}

/// A continuation resumed by whichever comes first: the work's end or the cancellation (even one that came
/// before the continuation was registered).
private final class ResumeOnce: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, resumed: Bool)>((nil, false))

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            if state.resumed { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = (nil, true) }
            return state.continuation
        }
        continuation?.resume()
    }
}
