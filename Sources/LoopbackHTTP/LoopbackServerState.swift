import Logging
internal import NIOCore
import Synchronization

/// What all connections of one server share: the handler, the counters and the open channels (so that
/// shutdown can close them).
final class LoopbackServerState: Sendable {
    let handler: LoopbackHTTPServer.Handler
    let logger: Logger
    private let counters = Mutex(LoopbackHTTPServer.Statistics())
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    private let stopping = Atomic<Bool>(false)

    init(handler: @escaping LoopbackHTTPServer.Handler, logger: Logger) {
        self.handler = handler
        self.logger = logger
    }

    var statistics: LoopbackHTTPServer.Statistics { counters.withLock { $0 } }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    func beginShutdown() { stopping.store(true, ordering: .releasing) }

    func openChannels() -> [any Channel] { channels.withLock { Array($0.values) } }

    func opened(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
        counters.withLock {
            $0.connectionsAccepted += 1
            $0.openConnections += 1
        }
        // A connection accepted while shutting down would otherwise stay open.
        if isStopping { channel.close(promise: nil) }
    }

    func closed(_ channel: any Channel) {
        channels.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
        counters.withLock { $0.openConnections -= 1 }
    }

    func received() { counters.withLock { $0.requestsReceived += 1 } }

    func served() { counters.withLock { $0.requestsServed += 1 } }

    /// The client went away mid-response; not counted when the server itself is closing connections.
    func abandoned() {
        guard !isStopping else { return }
        counters.withLock { $0.responsesAbandoned += 1 }
    }

    func sent(bodyBytes: Int) { counters.withLock { $0.bodyBytesSent += bodyBytes } }
}
