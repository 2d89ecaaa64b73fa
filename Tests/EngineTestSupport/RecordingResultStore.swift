package import FeatureService
import Synchronization

/// The engines' collaborator for the result store in these tests (the S3 side is tested with its own suites):
/// a ``ResultStore`` whose writers record what they are handed, and can fail the Nth append or hold appends
/// until released (a store that is behind), so the engines' streaming, abort and back-pressure can be proved.
package final class RecordingResultStore: ResultStore {
    package let delivery: StoreDelivery
    /// Each writer fails its `failOnAppend`th append (1-based) with `failure`; nil: never.
    package let failOnAppend: Int?
    package let failure: FeatureServiceError.Code
    /// Appends wait here while it is closed.
    package let gate: AppendGate
    private let opened = Mutex<[RecordingWriter]>([])

    package init(
        delivery: StoreDelivery, failOnAppend: Int? = nil, failure: FeatureServiceError.Code = .storeUnavailable,
        holdAppends: Bool = false, passingFirst: Int = 0
    ) {
        self.delivery = delivery
        self.failOnAppend = failOnAppend
        self.failure = failure
        self.gate = AppendGate(open: !holdAppends, passingFirst: passingFirst)
    }

    package func open(_ layer: ProgressLayer, kind: StoredSelection.Kind) async throws(FeatureServiceError) -> any StoredLayerWriter {
        let writer = RecordingWriter(layer: layer, kind: kind, failOnAppend: failOnAppend, failure: failure, gate: gate)
        opened.withLock { $0.append(writer) }
        return writer
    }

    /// The writers opened, in order.
    package var writers: [RecordingWriter] { opened.withLock { $0 } }
}

/// One recorded object.
package actor RecordingWriter: StoredLayerWriter {
    package nonisolated let layer: ProgressLayer
    package nonisolated let kind: StoredSelection.Kind
    private let failOnAppend: Int?
    private let failure: FeatureServiceError.Code
    private let gate: AppendGate
    /// Each item appended, in order.
    package private(set) var items: [[UInt8]] = []
    package private(set) var appends = 0
    package private(set) var finishes = 0
    package private(set) var aborts = 0

    init(layer: ProgressLayer, kind: StoredSelection.Kind, failOnAppend: Int?, failure: FeatureServiceError.Code, gate: AppendGate) {
        self.layer = layer
        self.kind = kind
        self.failOnAppend = failOnAppend
        self.failure = failure
        self.gate = gate
    }

    package func append(_ items: [ArraySlice<UInt8>]) async throws(FeatureServiceError) {
        appends += 1
        if appends == failOnAppend {
            throw FeatureServiceError(failure, "\(layer.url): the test store failed append \(appends)", layer: layer.url, isRetryable: true)
        }
        await gate.pass()
        self.items += items.map { Array($0) }
    }

    package func finish() async throws(FeatureServiceError) -> StoredSelection {
        finishes += 1
        return StoredSelection(
            kind: kind, url: "s3://test/\(layer.url)", httpURL: "http://store.test/\(layer.url)", expiresAt: 0,
            bytes: items.reduce(0) { $0 + $1.count }, sha256: "", contentType: "application/geo+json", contentEncoding: nil,
            count: items.count)
    }

    package func abort() async { aborts += 1 }
}

/// Where appends wait while the store is "behind": closed, each append waits until ``release()``.
package final class AppendGate: Sendable {
    private struct State {
        var open: Bool
        /// Appends that pass a closed gate before it starts holding them.
        var passes: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(open: Bool, passingFirst: Int = 0) { state = Mutex(State(open: open, passes: passingFirst)) }

    /// Appends waiting now.
    package var waiting: Int { state.withLock { $0.waiting.count } }

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = state.withLock { state -> Bool in
                if state.open { return true }
                if state.passes > 0 {
                    state.passes -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    /// Opens the gate: waiting appends go on, later ones do not wait.
    package func release() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
