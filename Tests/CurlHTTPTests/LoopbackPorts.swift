import Glibc

/// Plain sockets on 127.0.0.1 for what a loopback server can't show: a listener that never completes
/// connections, a check that a child server is listening.
enum LoopbackPorts {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether something accepts connections on the port now.
    static func isListening(_ port: Int) -> Bool {
        guard let socket = try? openSocket() else { return false }
        defer { _ = Glibc.close(socket) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    static func openSocket() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        return socket
    }

    static func bind(_ socket: Int32, port: Int) throws {
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw Failure(description: "bind() failed: errno \(errno)") }
    }

    static func localPort(_ socket: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard result == 0 else { throw Failure(description: "getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// A listener whose accept queue is full and never drained: the kernel drops further SYNs, so a client's
/// connect hangs until its connect timeout, as with a firewalled host, without leaving loopback.
final class UnresponsiveListener {
    let port: Int
    private var sockets: [Int32] = []

    init() throws {
        let listener = try LoopbackPorts.openSocket()
        var sockets = [listener]
        do {
            try LoopbackPorts.bind(listener, port: 0)
            let port = try LoopbackPorts.localPort(listener)
            // Backlog 0: the queue holds one completed connection; fill it so the next SYN is dropped.
            guard Glibc.listen(listener, 0) == 0 else { throw LoopbackPorts.Failure(description: "listen() failed: errno \(errno)") }
            let filler = try LoopbackPorts.openSocket()
            sockets.append(filler)
            var address = LoopbackPorts.loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw LoopbackPorts.Failure(description: "connect() failed: errno \(errno)") }
            self.port = port
            self.sockets = sockets
        } catch {
            for socket in sockets { _ = Glibc.close(socket) }
            throw error
        }
    }

    func close() {
        for socket in sockets { _ = Glibc.close(socket) }
        sockets = []
    }

    deinit { close() }
}
