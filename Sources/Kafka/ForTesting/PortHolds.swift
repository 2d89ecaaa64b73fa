import Glibc
import Synchronization

/// Loopback ports held by bound (never listening) sockets, by broker id: see
/// ``EmbeddedKafkaCluster/setBrokerDown(_:)``. Holding is best effort: when the port was taken already, nothing
/// is held and librdkafka's own bind decides.
final class PortHolds: Sendable {
    private let sockets = Mutex<[Int32: Int32]>([:])

    func hold(_ port: UInt16, for brokerID: Int32) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        // The broker's closed connections linger in TIME_WAIT on this port; SO_REUSEADDR binds past them.
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            return
        }
        let previous = sockets.withLock { sockets in
            defer { sockets[brokerID] = descriptor }
            return sockets[brokerID]
        }
        if let previous { close(previous) }
    }

    func release(_ brokerID: Int32) {
        if let descriptor = sockets.withLock({ $0.removeValue(forKey: brokerID) }) { close(descriptor) }
    }

    deinit {
        sockets.withLock { $0.values.forEach { close($0) } }
    }
}
