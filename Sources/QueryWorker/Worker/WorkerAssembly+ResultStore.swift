import CurlHTTP
import Foundation
import ObjectStore
import StoredResults

extension WorkerAssembly {
    /// The result store's provider when ``WorkerSettings/ResultStore/location`` is set, else `nil`: one
    /// ``S3Client`` for the worker's life over the worker's HTTP client, with credentials found the AWS SDKs' way
    /// (``AWSCredentialsChain``) once, at start, so a worker configured with a store but no credentials fails
    /// at start with what to set, not at its first large result.
    ///
    /// Throws ``ResultStoreStartupError`` (the bridge's `credentials` or `invalid_configuration`): its message
    /// names the setting, variables and files, never their values.
    static func resultStores(
        settings: WorkerSettings, httpClient: HTTPClient, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ResultStoreStartupError) -> ResultStoreProvider? {
        guard let text = settings.resultStore.location else { return nil }
        do {
            return try makeResultStores(location: text, settings: settings.resultStore, httpClient: httpClient, environment: environment)
        } catch {
            throw ResultStoreStartupError(location: text, error: error)
        }
    }

    private static func makeResultStores(
        location text: String, settings store: WorkerSettings.ResultStore, httpClient: HTTPClient, environment: [String: String]
    ) throws(ObjectStoreError) -> ResultStoreProvider {
        let location = try S3Location(parsing: text)
        let region = store.resolvedRegion(environment: environment)
        let endpoint: S3Endpoint? = try store.endpoint.map { url throws(ObjectStoreError) in try S3Endpoint(url: url) }
        let credentials = try AWSCredentialsChain.provider(environment: environment, stsClient: STSClient(http: httpClient))
        let client = try S3Client(
            http: httpClient,
            configuration: S3Client.Configuration(bucket: location.bucket, region: region, endpoint: endpoint, timeout: partTimeout),
            credentials: credentials)
        let configuration = S3ResultStore.Configuration(
            client: client, location: location, partBytes: store.partBytes,
            allowingSmallParts: store.partBytes < WorkerSettings.ResultStore.minimumPartBytes, urlLifetime: store.urlLifetime)
        return ResultStoreProvider(configuration: configuration, thresholdBytes: store.thresholdBytes)
    }

    /// One request to the store, a part's upload included: minutes, not the feature services' `httpTimeout`
    /// (a 64 MiB part on a slow link takes a while; a store that hangs still fails the layer).
    static let partTimeout: Duration = .seconds(300)
}

/// The result store configured (`resultStore`) cannot be used: no AWS credentials were found, or the location or
/// endpoint is unusable. The worker does not start: a store that fails at the first large result would fail
/// every such request instead.
package struct ResultStoreStartupError: Error, Sendable, CustomStringConvertible {
    /// The bridge's code (`credentials`, `invalid_configuration`).
    package var code: String
    package var message: String

    init(location: String, error: ObjectStoreError) {
        code = error.code.rawValue
        message = "resultStore \(location) cannot be used: \(error.message)"
    }

    package var description: String { message }
}
