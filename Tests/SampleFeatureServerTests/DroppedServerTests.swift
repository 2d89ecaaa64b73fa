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
        // Responses are held back far longer than the test waits, so an answer can only mean a connection the
        // server kept; the waits are hang guards for a starved test process, not the claim.
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 600_000), pathContains: "/rest/services")])
        for _ in 0..<3 {
            var server: SampleFeatureServer? = try await SampleFeatureServer.start(
                configuration: configuration, dataset: try TestSupport.dataset(), logger: TestSupport.logger)
            let port = try #require(server?.port)
            // Some connections are served (their handlers wait out the latency), the last ones are still
            // queued for the server when it is dropped.
            let sockets = try (0..<48).map { _ in try LoopbackSocket(port: port) }
            for socket in sockets { socket.send("GET /arcgis/rest/services?f=json HTTP/1.1\r\nHost: localhost\r\n\r\n") }
            server = nil
            let deadline = ContinuousClock.now + .seconds(240)
            for socket in sockets {
                let end = await socket.end(before: deadline)
                #expect(end == .closed, "a connection was not closed by the dropped server: \(end)")
            }
            #expect(await LoopbackSocket.refused(port: port, before: deadline), "the dropped server kept its port \(port)")
        }
    }
}

/// A TCP socket to `127.0.0.1`, for tests that need to see what happens below HTTP.
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

    /// What ends the wait for the server: the connection closed (end of stream or a reset), bytes arriving, or
    /// `deadline`. Waits without holding a thread (a blocking read would take one of the cooperative pool's few).
    func end(before deadline: ContinuousClock.Instant) async -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            let code = errno
            if code == ECONNRESET { return .closed }
            guard code == EAGAIN || code == EWOULDBLOCK else { return .failed(code) }
            guard ContinuousClock.now < deadline else { return .timedOut }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether connecting to `port` is refused (nothing listens) before `deadline`.
    static func refused(port: Int, before deadline: ContinuousClock.Instant) async -> Bool {
        while ContinuousClock.now < deadline {
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
