import Logging
internal import NIOCore
import Synchronization

/// What all connections of one server share: the counters, and the open connections (so that shutdown can
/// close them, and a responder can find the connection its request came on).
final class LoopbackServerState: Sendable {
    let logger: Logger
    private let counters = Mutex(LoopbackHTTPServer.Statistics())
    private let connections = Mutex<[ObjectIdentifier: LoopbackConnection]>([:])
    private let stopping = Atomic<Bool>(false)

    init(logger: Logger) {
        self.logger = logger
    }

    var statistics: LoopbackHTTPServer.Statistics { counters.withLock { $0 } }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    func beginShutdown() { stopping.store(true, ordering: .releasing) }

    func openConnections() -> [LoopbackConnection] { connections.withLock { Array($0.values) } }

    /// The connection a request arrived on, while it is open.
    func connection(for channel: any Channel) -> LoopbackConnection? {
        connections.withLock { $0[ObjectIdentifier(channel)] }
    }

    func opened(_ connection: LoopbackConnection) {
        connections.withLock { $0[ObjectIdentifier(connection.channel)] = connection }
        counters.withLock {
            $0.connectionsAccepted += 1
            $0.openConnections += 1
        }
        // A connection accepted while shutting down would otherwise stay open.
        if isStopping { connection.channel.close(promise: nil) }
    }

    /// `abandoned`: a response was still owed when the connection closed. Not counted when the server itself
    /// is closing connections.
    func closed(_ connection: LoopbackConnection, abandoned: Bool) {
        connections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(connection.channel)) }
        let counted = abandoned && !isStopping
        counters.withLock {
            $0.openConnections -= 1
            if counted { $0.responsesAbandoned += 1 }
        }
    }

    func received() { counters.withLock { $0.requestsReceived += 1 } }

    func served() { counters.withLock { $0.requestsServed += 1 } }

    func sent(bodyBytes: Int) { counters.withLock { $0.bodyBytesSent += bodyBytes } }
}
