import CurlHTTP
public import Logging
import Synchronization

/// Fetches what the worker stored for a layer (``StoredResultLocation``) through its presigned URL, checking
/// every byte against the location's size and SHA-256 and decompressing gzip or zstd on the way.
///
/// Three ways to read, by what the caller can hold: ``items(of:)`` streams each feature or id (memory stays at
/// about one range, ``Configuration/rangeBytes``, whatever the object's size); ``download(_:to:)`` writes the
/// decoded object to a file, put in place only once verified; ``resolving(_:maxBytes:)`` puts a layer that fits in
/// memory where an inline layer has its features or ids.
///
/// ``FeatureQueryClient`` has one (``FeatureQueryClient/storedResults``); make one of your own to read locations
/// without a Kafka client. Its HTTP client (libcurl, one loop thread) starts at the first fetch.
public final class StoredResultReader: Sendable {
    /// How objects are fetched.
    public struct Configuration: Sendable, Hashable {
        /// Bytes per range request: what the reader holds of an object at a time.
        public var rangeBytes: Int
        /// How often one range is requested in all when the store or the network fails in a retryable way.
        public var attempts: Int
        /// How long one range may take.
        public var requestTimeout: Duration
        public var connectTimeout: Duration

        /// A value with these members.
        public init(rangeBytes: Int = 8 << 20, attempts: Int = 3, requestTimeout: Duration = .seconds(120), connectTimeout: Duration = .seconds(10)) {
            self.rangeBytes = rangeBytes
            self.attempts = attempts
            self.requestTimeout = requestTimeout
            self.connectTimeout = connectTimeout
        }
    }

    public let configuration: Configuration
    private let logger: Logger
    private let client = Mutex<HTTPClient?>(nil)

    /// A reader; nothing starts until the first fetch.
    public init(configuration: Configuration = Configuration(), logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Stops the HTTP client; fetches still running fail.
    public func shutdown() async {
        let http = client.withLock { client in
            defer { client = nil }
            return client
        }
        await http?.shutdown()
    }

    /// The HTTP client, made at the first use: bodies as stored (no `Content-Encoding` decoding: the checksum is of
    /// the stored bytes), no redirects (a presigned URL does not move).
    func http() throws(FeatureQueryError) -> HTTPClient {
        let made = client.withLock { client -> Result<HTTPClient, HTTPError> in
            if let client { return .success(client) }
            do throws(HTTPError) {
                let http = try HTTPClient(
                    configuration: HTTPClientConfiguration(
                        connectTimeout: configuration.connectTimeout, timeout: configuration.requestTimeout,
                        userAgent: "feature-query-client", decodesContentEncoding: false),
                    logger: logger)
                client = http
                return .success(http)
            } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let http): return http
        case .failure(let error): throw FeatureQueryError(.storedResultUnavailable, "no HTTP client could be made: \(error.message)")
        }
    }

    func fetcher(_ location: StoredResultLocation) throws(FeatureQueryError) -> StoredRangeFetcher {
        StoredRangeFetcher(http: try http(), location: location, rangeBytes: configuration.rangeBytes, attempts: configuration.attempts)
    }
}
