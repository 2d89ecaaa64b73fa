
extension SampleFeatureServer {
    /// The HTTP layer's counters (connections accepted and open): a test hook, for tests that
    /// check that a client never connected.
    package var httpStatistics: SampleHTTPStatistics { http.statistics }
}
