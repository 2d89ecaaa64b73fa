import ChildProcessFixture
import FeatureQuerySupport
import FeatureService
import Foundation
import ObjectStore
import ObjectStoreFixture
import StoredResults
import Testing

/// What a stored layer fails with when the store fails, and that nothing is left behind: `store_unavailable`
/// (retryable) for a store that is down, throttles past the retries or keeps other bytes than were written;
/// `store_denied` (not retryable) for refused credentials and a missing bucket; multipart uploads aborted.
@Suite("S3 result store faults")
struct S3ResultStoreFaultTests {
    /// Nothing listens where the store should be: the layer fails `store_unavailable`, retryable, naming the object.
    @Test func aStoreThatIsDownAtTheStartIsUnavailable() async throws {
        let port = try ChildProcesses.unusedPort()
        let keys = AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "do-not-show")
        let error = try await ObjectStoreTestSupport.withClient(
            endpoint: "http://127.0.0.1:\(port)", bucket: "results", credentials: StaticCredentialsProvider(keys)
        ) { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            try await ResultStoreTestSupport.appendFeatures(100, to: writer)
            return await #expect(throws: FeatureServiceError.self) { _ = try await writer.finish() }
        }
        #expect(error?.code == .storeUnavailable && error?.isRetryable == true)
        #expect(error?.layer == ResultStoreTestSupport.layer.url)
        #expect(error?.message.contains("s3://results/result-store-tests/") == true, "\(String(describing: error))")
        #expect(error?.message.contains("do-not-show") == false)
    }

    /// moto is stopped while parts are being uploaded: the next part fails, the layer is `store_unavailable`.
    @Test func aStoreKilledMidUploadIsUnavailable() async throws {
        let moto = try await MotoServer.start(bucket: "results", signatureChecking: false)
        let error = try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            // More than one 5 MiB part: the upload exists at moto when it goes away.
            try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
            await moto.stop()
            return await #expect(throws: FeatureServiceError.self) {
                try await ResultStoreTestSupport.appendFeatures(40_000, to: writer)
                _ = try await writer.finish()
            }
        }
        #expect(error?.code == .storeUnavailable && error?.isRetryable == true, "\(String(describing: error))")
    }

    /// 503 SlowDown with `Retry-After: 1` for the first part, twice: the part is sent again after the wait and the
    /// object completes whole.
    @Test func aThrottledPartIsSentAgainAfterRetryAfter() async throws {
        let moto = try await SharedMoto.openServer()
        let rules = [S3FaultProxy.Rule(method: "PUT", contains: "partNumber=1&", fault: .slowDown(retryAfter: 1), times: 2)]
        try await S3FaultProxy.withProxy(to: moto.endpoint, rules: rules, logger: ObjectStoreTestSupport.logger) { proxy, endpoint in
            try await Self.withClient(endpoint, moto) { s3 in
                let store = ResultStoreTestSupport.store(s3)
                let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
                let started = ContinuousClock.now
                try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
                let stored = try await writer.finish()
                #expect(ContinuousClock.now - started >= .seconds(2), "waited Retry-After twice")
                let sends = proxy.log.filter { $0.hasPrefix("PUT ") && $0.contains("partNumber=1&") }
                #expect(sends.count == 3 && sends.last?.hasSuffix("→ 200") == true, "\(sends)")
                let read = try await moto.readWithBoto3(key: store.key(of: ResultStoreTestSupport.layer))
                #expect(SHA256.hexDigest(read) == stored.sha256 && stored.count == 20_000)
            }
        }
    }

    /// A store that throttles past the retries: `store_unavailable`, retryable, with the store's wait.
    @Test func aStoreThatKeepsThrottlingIsUnavailable() async throws {
        let moto = try await SharedMoto.openServer()
        let rules = [S3FaultProxy.Rule(method: "PUT", contains: "partNumber=", fault: .slowDown(retryAfter: 0), times: nil)]
        try await S3FaultProxy.withProxy(to: moto.endpoint, rules: rules, logger: ObjectStoreTestSupport.logger) { _, endpoint in
            try await Self.withClient(endpoint, moto) { s3 in
                let store = ResultStoreTestSupport.store(s3)
                let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
                let error = await #expect(throws: FeatureServiceError.self) {
                    try await ResultStoreTestSupport.appendFeatures(40_000, to: writer)
                    _ = try await writer.finish()
                }
                #expect(error?.code == .storeUnavailable && error?.isRetryable == true)
                #expect(error?.message.contains("slow down") == true, "\(String(describing: error))")
                #expect(try await ResultStoreTestSupport.openUploads(moto, under: "result-store-tests/\(store.taskId)/") == 0)
            }
        }
    }

    /// The second part fails with 500 every time: the layer fails `store_unavailable` and the multipart upload
    /// is aborted (the AWS CLI lists none under the task).
    @Test func aPartThatFailsAbortsTheUpload() async throws {
        let moto = try await SharedMoto.openServer()
        let rules = [S3FaultProxy.Rule(method: "PUT", contains: "partNumber=2&", fault: .internalError, times: nil)]
        try await S3FaultProxy.withProxy(to: moto.endpoint, rules: rules, logger: ObjectStoreTestSupport.logger) { proxy, endpoint in
            try await Self.withClient(endpoint, moto) { s3 in
                let store = ResultStoreTestSupport.store(s3)
                let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
                let error = await #expect(throws: FeatureServiceError.self) {
                    try await ResultStoreTestSupport.appendFeatures(60_000, to: writer)
                    _ = try await writer.finish()
                }
                #expect(error?.code == .storeUnavailable && error?.isRetryable == true, "\(String(describing: error))")
                #expect(proxy.log.contains { $0.hasPrefix("DELETE ") && $0.contains("uploadId=") && $0.hasSuffix("→ 204") }, "\(proxy.log)")
                #expect(try await ResultStoreTestSupport.openUploads(moto, under: "result-store-tests/\(store.taskId)/") == 0)
                await writer.abort()  // idempotent
            }
        }
    }

    /// The store reports another size for the completed object than was written: not published as complete,
    /// `store_unavailable` (the request can run again).
    @Test func aSizeMismatchAfterCompletionIsDetected() async throws {
        let moto = try await SharedMoto.openServer()
        let rules = [S3FaultProxy.Rule(method: "HEAD", contains: "/result-store-tests/", fault: .sizeOff(delta: -7), times: nil)]
        try await S3FaultProxy.withProxy(to: moto.endpoint, rules: rules, logger: ObjectStoreTestSupport.logger) { _, endpoint in
            try await Self.withClient(endpoint, moto) { s3 in
                let store = ResultStoreTestSupport.store(s3)
                let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
                try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
                let error = await #expect(throws: FeatureServiceError.self) { _ = try await writer.finish() }
                #expect(error?.code == .storeUnavailable && error?.isRetryable == true)
                #expect(error?.message.contains("bytes") == true, "\(String(describing: error))")
            }
        }
    }

    /// A part's ETag that is not what the store holds: completing the upload fails (S3's `InvalidPart`), the
    /// layer is `store_unavailable` and the upload is aborted.
    @Test func anETagMismatchOnCompletionIsDetected() async throws {
        let moto = try await SharedMoto.openServer()
        let rules = [S3FaultProxy.Rule(method: "PUT", contains: "partNumber=1&", fault: .wrongETag, times: 1)]
        try await S3FaultProxy.withProxy(to: moto.endpoint, rules: rules, logger: ObjectStoreTestSupport.logger) { proxy, endpoint in
            try await Self.withClient(endpoint, moto) { s3 in
                let store = ResultStoreTestSupport.store(s3)
                let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
                try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
                let error = await #expect(throws: FeatureServiceError.self) { _ = try await writer.finish() }
                #expect(error?.code == .storeUnavailable && error?.isRetryable == true, "\(String(describing: error))")
                #expect(proxy.log.contains { $0.hasPrefix("POST ") && $0.contains("uploadId=") && !$0.hasSuffix("→ 200") }, "\(proxy.log)")
                #expect(try await ResultStoreTestSupport.openUploads(moto, under: "result-store-tests/\(store.taskId)/") == 0)
            }
        }
    }

    /// A run cancelled mid-upload (supersession, cancel, deadline): the engine's `abort` in the cancelled task
    /// still reaches the store, and ``S3ResultStore/abortUnfinished()`` drops what an engine left open.
    @Test func cancellationLeavesNoUploadBehind() async throws {
        let moto = try await SharedMoto.server()
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            let run = Task {
                try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
                withUnsafeCurrentTask { $0?.cancel() }
                await writer.abort()
            }
            try await run.value
            let left = ResultStoreTestSupport.store(s3, taskId: store.taskId)
            let other = try await left.open(ProgressLayer(url: "http://h/ogc/collections/c", collection: "c"), kind: .features)
            try await ResultStoreTestSupport.appendFeatures(20_000, to: other)
            #expect(left.unfinishedCount == 1)
            #expect(await left.abortUnfinished() == 1)
            #expect(try await ResultStoreTestSupport.openUploads(moto, under: "result-store-tests/\(store.taskId)/") == 0)
        }
    }

    /// Credentials moto refuses: `store_denied`, not retryable, saying what to check and showing no secret.
    @Test func deniedCredentialsAreStoreDenied() async throws {
        let moto = try await SharedMoto.server()
        let keys = AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey + "-wrong")
        let error = try await ObjectStoreTestSupport.withClient(moto, credentials: keys) { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            return await #expect(throws: FeatureServiceError.self) {
                try await ResultStoreTestSupport.appendFeatures(20_000, to: writer)
                _ = try await writer.finish()
            }
        }
        #expect(error?.code == .storeDenied && error?.isRetryable == false, "\(String(describing: error))")
        #expect(error?.message.contains("credentials") == true)
        #expect(error?.message.contains(moto.secretAccessKey) == false)
    }

    /// A bucket that does not exist: `store_denied`, naming the setting to correct.
    @Test func aMissingBucketIsStoreDenied() async throws {
        let moto = try await SharedMoto.server()
        let error = try await ObjectStoreTestSupport.withClient(moto, bucket: "no-such-results") { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .ids)
            try await writer.append([ArraySlice("1".utf8)])
            return await #expect(throws: FeatureServiceError.self) { _ = try await writer.finish() }
        }
        #expect(error?.code == .storeDenied && error?.isRetryable == false, "\(String(describing: error))")
        #expect(error?.message.contains("resultStore") == true)
    }

    static func withClient<T>(_ endpoint: String, _ moto: MotoServer, _ body: (S3Client) async throws -> T) async throws -> T {
        try await ObjectStoreTestSupport.withClient(
            endpoint: endpoint, bucket: moto.bucket,
            credentials: StaticCredentialsProvider(AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)), body)
    }
}
