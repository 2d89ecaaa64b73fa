import Glibc
import SampleFeatureServer
import Testing

/// A server that a test drops without `shutdown()` (the test threw first) stops by itself: it closes its
/// port and its connections, and connections that were accepted but not yet served do not bring the process
/// down (SwiftNIO traps on an accepted connection dropped by a cancelled serving task; the server's
/// `deinit` shuts down gracefully instead).
@Suite("Dropped servers")
struct DroppedServerTests {
    @Test("a server dropped while connections arrive closes its port and every connection")
    func droppedWhileConnectionsArrive() async throws {
        // Responses are held back, so no connection is answered before the server goes.
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 30_000), pathContains: "/rest/services")])
        for _ in 0..<5 {
            var server: SampleFeatureServer? = try await SampleFeatureServer.start(
                configuration: configuration, dataset: try TestSupport.dataset(), logger: TestSupport.logger)
            let port = try #require(server?.port)
            // Some connections are served (their handlers wait out the latency), the last ones are still
            // queued for the server when it is dropped.
            let sockets = try (0..<48).map { _ in try LoopbackSocket(port: port) }
            for socket in sockets { socket.send("GET /arcgis/rest/services?f=json HTTP/1.1\r\nHost: localhost\r\n\r\n") }
            server = nil
            // Each connection is closed without an answer: a server that kept it would answer when the 30 s of
            // latency end, well within the read's hang guard (which only bounds a starved test process).
            for socket in sockets {
                let read = socket.readOnce(timeoutSeconds: 60)
                #expect(read == .closed, "a connection was not closed by the dropped server: \(read)")
            }
            #expect(await LoopbackSocket.refused(port: port, within: .seconds(60)), "the dropped server kept its port \(port)")
        }
    }
}

/// A blocking TCP socket to `127.0.0.1`, for tests that need to see what happens below HTTP.
private final class LoopbackSocket {
    enum ReadResult: Equatable { case bytes(Int), closed, timedOut, failed(Int32) }

    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailure(errno: errno) }
        guard Self.connect(descriptor, port: port) == 0 else {
            let failure = SocketFailure(errno: errno)
            close(descriptor)
            throw failure
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.send(descriptor, &bytes, bytes.count, Int32(MSG_NOSIGNAL))
    }

    /// One `read`, waiting at most `timeoutSeconds`: `.closed` on end of stream or a reset.
    func readOnce(timeoutSeconds: Int) -> ReadResult {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        switch errno {
        case ECONNRESET: return .closed
        case EAGAIN, EWOULDBLOCK: return .timedOut
        case let code: return .failed(code)
        }
    }

    /// Whether connecting to `port` is refused (nothing listens) before `within` passes.
    static func refused(port: Int, within: Duration) async -> Bool {
        let end = ContinuousClock.now + within
        while ContinuousClock.now < end {
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let result = connect(probe, port: port)
            let code = errno
            close(probe)
            if result != 0, code == ECONNREFUSED { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    private static func connect(_ descriptor: Int32, port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}

private struct SocketFailure: Error { var errno: Int32 }
