import CurlHTTP
import Foundation
import Logging
import LoopbackHTTP
import Synchronization
import Testing

/// Shared pieces of the CurlHTTP tests: a quiet logger, and clients and loopback servers that are always
/// shut down, even when the test body throws.
enum TestSupport {
    static let logger: Logger = {
        var logger = Logger(label: "curlhttp-tests") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["CURLHTTP_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()

    /// Runs `body` with a client on `configuration`, then shuts the client down.
    static func withClient<T>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        _ body: (HTTPClient) async throws -> T
    ) async throws -> T {
        let client = try HTTPClient(configuration: configuration, logger: logger)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// Runs `body` with a loopback server on an ephemeral port, then shuts the server down.
    static func withServer<T>(
        _ handler: @escaping LoopbackHTTPServer.Handler,
        _ body: (LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try await LoopbackHTTPServer.start(logger: logger, handler: handler)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held. For state that
    /// settles asynchronously (counters, sockets), without guessing a sleep.
    static func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return condition() }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Deterministic bytes for bodies whose order must be checked.
    static func pattern(count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 + seed) % 251) }
    }
}

/// Requests a loopback handler received, for checks after the fact.
final class RequestLog: Sendable {
    private let requests = Mutex<[LoopbackRequest]>([])

    func record(_ request: LoopbackRequest) {
        requests.withLock { $0.append(request) }
    }

    var all: [LoopbackRequest] { requests.withLock { $0 } }
}

/// Open file descriptors and TCP sockets of this process, from /proc: what a leak of connections shows in.
enum ProcessResources {
    /// Entries of /proc/self/fd.
    static func openFileDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Socket inodes this process holds open.
    static func socketInodes() -> Set<String> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes = Set<String>()
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return inodes
    }

    /// This process's TCP sockets whose remote port is `port`: the client side of connections to a server.
    /// Other tests running in parallel don't disturb this count, unlike the total of descriptors.
    static func clientSockets(toPort port: Int) -> Int {
        let inodes = socketInodes()
        var count = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            // Read to the end: /proc files claim size 0, and String(contentsOfFile:) stops after one page.
            guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 9, let remotePort = columns[2].split(separator: ":").last,
                    Int(remotePort, radix: 16) == port, inodes.contains(String(columns[9]))
                else { continue }
                count += 1
            }
        }
        return count
    }
}
