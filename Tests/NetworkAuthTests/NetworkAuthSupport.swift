import CurlHTTP
import Foundation
import HTTPTestServer
import Logging
import NetworkAuthFixture
import Synchronization
import HTTPTypes
import HummingbirdCore

// CurlHTTP and Hummingbird's swift-http-types both name these; in these tests the bare names are the client's.
typealias HTTPRequest = CurlHTTP.HTTPRequest
typealias HTTPResponse = CurlHTTP.HTTPResponse
typealias HTTPError = CurlHTTP.HTTPError

/// Clients and upstream servers for the network authentication tests, always shut down.
enum NetworkAuthSupport {
    static let logger: Logger = {
        var logger = Logger(label: "network-auth-tests") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["CURLHTTP_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()

    /// Runs `body` with a client on `configuration` (and `logger`), then shuts it down.
    static func withClient<T>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        logger: Logger = logger,
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

    /// A request with credentials for this request only: how the worker hands them over.
    static func request(_ url: String, _ rule: HTTPCredentialRule) -> HTTPRequest {
        HTTPRequest(url: url, options: HTTPRequestOptions(credentials: rule))
    }

    /// Runs `body` with a loopback upstream that answers `upstream <uri> host=<Host> authorization=<...>`, so a
    /// test sees the path arrive unchanged, the front's host passed on and its credentials kept at the front.
    static func withUpstream<T>(_ body: (NetworkAuthUpstream) async throws -> T) async throws -> T {
        try await withServer({ request in
            // Hummingbird keeps the Host field apart, as the request's authority.
            .text("upstream \(request.uri) host=\(request.head.authority ?? "none") authorization=\(request.headers["Authorization"] ?? "none")\n")
        }) { server in
            try await body(try NetworkAuthUpstream(origin: server.baseURL))
        }
    }

    /// What the upstream answers for `path` reached through the front at `origin`.
    static func upstreamAnswer(_ path: String, via origin: String) -> String {
        let host = origin.split(separator: "/").last.map(String.init) ?? origin
        return "upstream \(path) host=\(host) authorization=none\n"
    }

    /// Runs `body` with a fake server on `handler`, then stops it.
    static func withServer<T>(_ handler: @escaping TestHTTPServer.Handler, _ body: (TestHTTPServer) async throws -> T) async throws -> T {
        try await TestHTTPServer.withServer(logger: logger, handler: handler, body)
    }
}

/// A log handler that keeps every message and its metadata, for checks of what was logged.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)")
    }

    static func logger(_ store: Store) -> Logger {
        Logger(label: "capture") { _ in CapturingLogHandler(store: store) }
    }
}
