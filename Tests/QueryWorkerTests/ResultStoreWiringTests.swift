import CurlHTTP
import FeatureService
import Logging
import ObjectStore
import StoredResults
import Testing
@testable import RequestContract

@testable import QueryWorker

/// How the worker makes each request's store from its settings: one S3 client at start (credentials found the
/// AWS way, or a start-up error naming what to set), and per request a store only when `delivery` may store.
@Suite struct ResultStoreWiringTests {
    static let logger = Logger(label: "result-store-wiring") { _ in SwiftLogNoOpLogHandler() }

    static func settings() -> WorkerSettings {
        var settings = WorkerSettings()
        settings.resultStore.location = "s3://results/feature-queries"
        settings.resultStore.endpoint = "http://127.0.0.1:9"
        settings.resultStore.thresholdBytes = 2 << 20
        return settings
    }

    static func withHTTP<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        let http = try HTTPClient(logger: logger)
        let result: Result<T, any Error>
        do { result = .success(try await body(http)) } catch { result = .failure(error) }
        await http.shutdown()
        return try result.get()
    }

    @Test func noStoreWithoutTheSetting() async throws {
        let provider = try await Self.withHTTP { http in
            try WorkerAssembly.resultStores(settings: WorkerSettings(), httpClient: http, environment: [:])
        }
        #expect(provider == nil)
    }

    /// A store without credentials anywhere stops the worker at start, naming the variables and the file, no value.
    @Test func aStoreWithoutCredentialsFailsAtStart() async throws {
        try await Self.withHTTP { http in
            let environment = ["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials", "HOME": "/nonexistent"]
            let error = #expect(throws: ResultStoreStartupError.self) {
                _ = try WorkerAssembly.resultStores(settings: Self.settings(), httpClient: http, environment: environment)
            }
            #expect(error?.code == "credentials")
            #expect(error?.message.hasPrefix("resultStore s3://results/feature-queries cannot be used: no AWS credentials") == true)
            #expect(error?.message.contains("AWS_ACCESS_KEY_ID") == true)
        }
    }

    /// Per request: `inline` gets no store, `store` stores every layer, `auto` above the threshold; the format
    /// and compression are the request's; `delivery: store` is admitted once a store exists.
    @Test func eachRequestGetsTheStoreItsDeliveryAsks() async throws {
        try await Self.withHTTP { http in
            let environment = ["AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "eu-west-1"]
            let provider = try #require(try WorkerAssembly.resultStores(settings: Self.settings(), httpClient: http, environment: environment))
            #expect(provider.configuration.client.configuration.region == "eu-west-1")
            #expect(provider.configuration.location.prefix == "feature-queries/")
            var request = QueryRequest(requestId: "r", taskId: "t", receivedAt: 0, targets: [], query: QuerySpec())
            request.delivery = ResultDelivery(mode: .inline)
            #expect(provider.store(for: request) == nil)
            request.delivery = ResultDelivery(mode: .store, format: .ndjson, compression: .zstd)
            let stored = try #require(provider.store(for: request))
            #expect(stored.delivery == .always && stored.format == .ndjson && stored.compression == .zstd)
            #expect(stored.key(of: ProgressLayer(url: "https://h/FeatureServer/2", layerId: 2)).hasPrefix("feature-queries/t/r/layer2-"))
            request.delivery = ResultDelivery()
            #expect(provider.store(for: request)?.delivery == .above(thresholdBytes: 2 << 20))
            let executor = RequestExecutor(
                engine: FeatureServiceRouter([]), hostPolicy: try HostPolicy(allowedHosts: []), workerID: "w", stores: provider,
                clock: { 0 })
            request.delivery = ResultDelivery(mode: .store)
            #expect(executor.admit(request) == nil)
        }
    }
}
