import FeatureQuerySupport
import FeatureService
import Synchronization

/// One run's ``ProgressSink``: counts the pages the engines report per layer and, as its throttle
/// (``StateMachine``) says, hands an event per request on the run to the ``ProgressPublisher``.
///
/// Made only for runs whose requests asked for progress; the engines call it from their page loops, so each
/// call takes the lock for a few additions and publishes (a task's creation) outside it. ``finish()`` is called
/// when the engine has answered, before the outcome is built: no event is made after it.
final class ProgressReporter: ProgressSink {
    private struct State {
        var machine: StateMachine
        var layers: [ProgressEvent.Layer] = []
        var index: [String: Int] = [:]
        var timer: Task<Void, Never>?
    }

    /// Who asked: the requests on the run when an event is made (a request that joined the run gets the
    /// run's events too).
    let askers: @Sendable () -> [(requestId: String, taskId: String)]
    /// Written into every event's `worker`.
    let worker: String
    /// Hands events on to be published (``ProgressPublisher/publish(_:)``); never waits.
    let publish: @Sendable ([ProgressEvent]) -> Void
    /// A monotonic clock in milliseconds, for the throttle.
    let monotonicMs: @Sendable () -> Int64
    /// The wall clock in milliseconds since the epoch, for `at`.
    let wallMs: @Sendable () -> Int64
    private let startedMs: Int64
    private let state: Mutex<State>

    init(
        intervalMs: Int64 = 1_000, worker: String,
        askers: @escaping @Sendable () -> [(requestId: String, taskId: String)],
        publish: @escaping @Sendable ([ProgressEvent]) -> Void,
        monotonicMs: @escaping @Sendable () -> Int64 = ProgressReporter.monotonicNow,
        wallMs: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }
    ) {
        self.worker = worker
        self.publish = publish
        self.askers = askers
        self.monotonicMs = monotonicMs
        self.wallMs = wallMs
        self.startedMs = monotonicMs()
        self.state = Mutex(State(machine: StateMachine(intervalMs: intervalMs)))
    }

    func pageRead(_ layer: ProgressLayer, features: Int, expected: Int?) {
        update(layer) { entry in
            entry.pages += 1
            entry.features += max(0, features)
            if let expected { entry.expected = expected }
        }
    }

    func layerFinished(_ layer: ProgressLayer) {
        update(layer) { $0.done = true }
    }

    /// The run has its answer: cancels a pending timer; nothing is published from now on.
    func finish() {
        let timer = state.withLock { state -> Task<Void, Never>? in
            defer { state.timer = nil }
            return state.machine.finish() ? state.timer : nil
        }
        timer?.cancel()
    }

    /// The layers as the last event would report them (for tests).
    var layers: [ProgressEvent.Layer] { state.withLock { $0.layers } }

    private func update(_ layer: ProgressLayer, _ change: (inout ProgressEvent.Layer) -> Void) {
        let now = monotonicMs()
        let snapshot = state.withLock { state -> [ProgressEvent.Layer]? in
            let position: Int
            if let known = state.index[layer.url] {
                position = known
            } else {
                position = state.layers.count
                state.index[layer.url] = position
                state.layers.append(ProgressEvent.Layer(layer))
            }
            change(&state.layers[position])
            if state.layers[position].layerId == nil { state.layers[position].layerId = layer.layerId }
            switch state.machine.changed(nowMs: now) {
            case .emit:
                return state.layers
            case .schedule(let delay):
                state.timer = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(delay))
                    self?.timerFired()
                }
                return nil
            case .drop:
                return nil
            }
        }
        if let snapshot { emit(snapshot, nowMs: now) }
    }

    private func timerFired() {
        let now = monotonicMs()
        let snapshot = state.withLock { state -> [ProgressEvent.Layer]? in
            state.timer = nil
            return state.machine.timerFired(nowMs: now) == .emit ? state.layers : nil
        }
        if let snapshot { emit(snapshot, nowMs: now) }
    }

    private func emit(_ layers: [ProgressEvent.Layer], nowMs: Int64) {
        let at = wallMs()
        let events = askers().map { asker in
            ProgressEvent(
                requestId: asker.requestId, taskId: asker.taskId, worker: worker, at: at,
                elapsedMs: nowMs - startedMs, layers: layers)
        }
        publish(events)
    }

    /// Milliseconds of the continuous clock since the first use.
    @Sendable static func monotonicNow() -> Int64 { (ContinuousClock.now - reference).clampedMilliseconds }

    private static let reference = ContinuousClock.now
}
