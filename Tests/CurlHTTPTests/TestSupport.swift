import CurlHTTP
import Foundation
import HTTPTestServer
import Hummingbird
import Logging
import Synchronization
import Testing

// CurlHTTP and Hummingbird's swift-http-types both name these; in these tests the bare names are the client's.
typealias HTTPRequest = CurlHTTP.HTTPRequest
typealias HTTPResponse = CurlHTTP.HTTPResponse
typealias HTTPError = CurlHTTP.HTTPError

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

    /// Runs `body` with a fake server on `handler`, on an ephemeral loopback port, then stops the server.
    static func withServer<T>(
        _ handler: @escaping TestHTTPServer.Handler,
        _ body: (TestHTTPServer) async throws -> T
    ) async throws -> T {
        try await TestHTTPServer.withServer(logger: logger, handler: handler, body)
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

/// Requests a fake server received, bodies included, for checks after the fact.
final class RequestLog: Sendable {
    /// One request: Hummingbird's, and its body read whole.
    struct Entry: Sendable {
        let request: Request
        let body: [UInt8]

        var method: String { request.method.rawValue }
        var path: String { request.uri.path }
        var headers: HTTPFields { request.headers }
        var bodyText: String { String(decoding: body, as: UTF8.self) }
        var queryItems: [FormField] { request.queryItems }
        /// The first value of a query or form field.
        func parameter(_ name: String) -> String? { (queryItems + formFields).value(name) }
        /// The body's fields when it is a form.
        var formFields: [FormField] {
            guard headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true else { return [] }
            return FormField.decode(bodyText)
        }
    }

    private let requests = Mutex<[Entry]>([])

    func record(_ request: Request) async throws {
        let entry = Entry(request: request, body: try await request.bodyBytes())
        requests.withLock { $0.append(entry) }
    }

    var all: [Entry] { requests.withLock { $0 } }
}

extension Response {
    /// A chunked body sent one piece at a time, with a pause before each piece after the first: a slow server.
    static func chunks(_ pieces: [[UInt8]], delay: Duration) -> Response {
        Response(status: .ok, body: ResponseBody { writer in
            for (index, piece) in pieces.enumerated() {
                if index > 0 { try await Task.sleep(for: delay) }
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        })
    }

    /// Announces `announcedLength` bytes, sends `bytes` (fewer), then fails the body: Hummingbird closes the
    /// connection where it is, as a server or network failing mid-body.
    static func truncated(_ bytes: [UInt8], announcedLength: Int) -> Response {
        Response(status: .ok, headers: [.contentLength: String(announcedLength)], body: ResponseBody { writer in
            try await writer.write(ByteBuffer(bytes: bytes))
            throw CutShort()
        })
    }

    /// `totalBytes` of the pattern of ``TestSupport/pattern(count:seed:)``, chunked in pieces of `chunkSize`,
    /// without `Content-Length`: bodies of any size without holding them in memory.
    static func generated(totalBytes: Int, chunkSize: Int) -> Response {
        Response(status: .ok, body: ResponseBody { writer in
            var offset = 0
            while offset < totalBytes {
                let count = min(chunkSize, totalBytes - offset)
                try await writer.write(ByteBuffer(bytes: TestSupport.pattern(count: count, seed: offset)))
                offset += count
            }
            try await writer.finish(nil)
        })
    }

    /// Thrown by a body to cut it short.
    struct CutShort: Error {}
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
