import CurlHTTP

/// An HTTP client for a test (the caller shuts it down).
enum HTTPClientFixture {
    static func make() throws -> HTTPClient { try HTTPClient(logger: OGCTestServer.logger) }
}
