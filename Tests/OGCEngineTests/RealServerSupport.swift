import CurlHTTP
import FeatureService
import Logging
import Synchronization
import Testing

@testable import OGCEngine

/// Runs the OGC engine against servers that are not scripted by the test (pygeoapi, the sample server's OGC
/// face), recording every URL the engine requests, so a test can say what was and was not sent.
///
/// The URLs come from the transport's own `debug` line ("OGC API request", metadata `url`), one per HTTP
/// exchange: the engine cannot send a request that this log does not show.
enum RealServerSupport {
    /// Every URL one engine requested, in order.
    final class RequestLog: Sendable {
        private let urls = Mutex<[String]>([])

        var all: [String] { urls.withLock { $0 } }
        /// The items requests (pages), the only ones that carry a query's parameters.
        var items: [String] { all.filter { $0.contains("/items") } }

        fileprivate func record(_ url: String) { urls.withLock { $0.append(url) } }

        /// Whether any items request carried the query parameter `name` (`name=` after `?` or `&`).
        func itemsSent(parameter name: String) -> Bool {
            items.contains { url in url.contains("?\(name)=") || url.contains("&\(name)=") }
        }
    }

    /// A log handler that keeps the engine's request URLs and drops everything else.
    private struct RecordingHandler: LogHandler {
        let log: RequestLog
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.message.description == "OGC API request", let url = event.metadata?["url"] else { return }
            log.record(url.description)
        }
    }

    static let quietLogger = Logger(label: "ogc-real-server-tests") { _ in SwiftLogNoOpLogHandler() }

    /// A logger that records the OGC engine's request URLs into `log` (and drops every other line).
    static func recordingLogger(_ log: RequestLog) -> Logger {
        var logger = Logger(label: "ogc-real-server-tests") { _ in RecordingHandler(log: log) }
        logger.logLevel = .debug
        return logger
    }

    /// Runs `body` with a fresh engine (its own metadata cache) whose requests are recorded, over a client
    /// shut down afterwards.
    static func withEngine<T>(
        configuration: OGCEngineConfiguration = OGCEngineConfiguration(),
        _ body: (OGCEngine, RequestLog) async throws -> T
    ) async throws -> T {
        let log = RequestLog()
        let logger = recordingLogger(log)
        let client = try HTTPClient(logger: quietLogger)
        let engine = OGCEngine(httpClient: client, configuration: configuration, logger: logger)
        do {
            let result = try await body(engine, log)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// One collection's outcome of `query` through the engine's seam.
    static func query(
        _ engine: some FeatureServiceEngine, landing: String, collection: String, _ query: ServiceQuery
    ) async throws -> ServiceLayerResult {
        let outcomes = await engine.query(
            [ServiceTarget(kind: .ogc, url: landing, layers: [collection])], query, budget: .unlimited())
        let outcome = try #require(outcomes.first?.first)
        switch outcome.result {
        case .success(let result): return result
        case .failure(let error): throw error
        }
    }

    /// The integer ids of a result, ascending (the engine keeps arrival order; truth is ascending); a string
    /// or missing id fails the test.
    static func sortedIntegerIDs(_ result: ServiceLayerResult) throws -> [Int] {
        try result.featureIds.map { id -> Int in
            guard case .integer(let value)? = id else { throw RealServerFailure("a feature id that is not an integer: \(String(describing: id))") }
            return Int(value)
        }.sorted()
    }
}

/// A test precondition that did not hold (an answer of an unexpected shape).
struct RealServerFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
