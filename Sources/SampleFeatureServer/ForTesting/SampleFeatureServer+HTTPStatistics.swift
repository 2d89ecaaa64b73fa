package import LoopbackHTTP

extension SampleFeatureServer {
    /// The HTTP layer's counters (connections, bytes, abandoned responses): a test hook, for tests that
    /// check that a client never connected.
    package var httpStatistics: LoopbackHTTPServer.Statistics { http.statistics }
}
