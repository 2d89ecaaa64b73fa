import NIOCore
import Synchronization

/// The sample server's connection counters: a test hook (see `httpStatistics`), for tests that check that a
/// client never connected or reused its connections.
package struct SampleHTTPStatistics: Sendable, Hashable {
    /// TCP connections accepted.
    package var connectionsAccepted = 0
    /// TCP connections open now.
    package var openConnections = 0

    /// All counters zero.
    package init() {}
}

/// What the connections of one server share: the counters, and the open connections, so that a responder
/// finds the one its request came on and shutdown can close them.
final class SampleConnections: Sendable {
    private struct State {
        var open: [ObjectIdentifier: SampleConnection] = [:]
        var statistics = SampleHTTPStatistics()
        var stopping = false
    }

    private let state = Mutex(State())

    var statistics: SampleHTTPStatistics { state.withLock { $0.statistics } }

    /// The connection a request arrived on; when it has closed already (the responder can start after the
    /// client left, on a busy machine), a closed one, so the handler still sees the request, cancelled.
    func connection(for channel: any Channel) -> SampleConnection {
        state.withLock { $0.open[ObjectIdentifier(channel)] } ?? SampleConnection(closed: channel)
    }

    func opened(_ connection: SampleConnection) {
        let stopping = state.withLock { state in
            state.open[ObjectIdentifier(connection.channel)] = connection
            state.statistics.connectionsAccepted += 1
            state.statistics.openConnections += 1
            return state.stopping
        }
        // A connection accepted while shutting down would otherwise stay open.
        if stopping { connection.channel.close(promise: nil) }
    }

    func closed(_ connection: SampleConnection) {
        state.withLock { state in
            if state.open.removeValue(forKey: ObjectIdentifier(connection.channel)) != nil { state.statistics.openConnections -= 1 }
        }
        connection.closed()
    }

    /// Marks the server as stopping and returns the connections open now, for shutdown to close.
    func beginShutdown() -> [SampleConnection] {
        state.withLock { state in
            state.stopping = true
            return Array(state.open.values)
        }
    }
}

/// One client connection as the responder sees it: the handler running for it, cancelled as soon as the
/// client goes away.
final class SampleConnection: Sendable {
    let channel: any Channel

    private struct Running {
        var cancel: (@Sendable () -> Void)?
        var closed = false
    }

    private let running: Mutex<Running>

    init(channel: any Channel) {
        self.channel = channel
        running = Mutex(Running())
    }

    /// A connection that closed before its request's responder ran.
    init(closed channel: any Channel) {
        self.channel = channel
        running = Mutex(Running(closed: true))
    }

    /// Runs `operation` in a task of its own, so that ``closed()`` (called on the event loop) can cancel it;
    /// on a closed connection it starts cancelled.
    func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = Task { try await operation() }
        let open = running.withLock { running in
            running.cancel = { task.cancel() }
            return !running.closed
        }
        if !open { task.cancel() }
        defer { running.withLock { $0.cancel = nil } }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// The channel closed: cancels the running handler.
    func closed() {
        let cancel = running.withLock { running in
            running.closed = true
            return running.cancel
        }
        cancel?()
    }

    var isClosed: Bool { running.withLock { $0.closed } }
}
