import EngineTestSupport
import CurlHTTP
import EngineExecution
import FeatureService
import HTTPTestServer
import SampleFeatureServer
import Synchronization
import Testing

@testable import ArcGISEngine
import HTTPTypes
import HummingbirdCore

/// The engine sends what the worker's credentials say on every request and handles 498/499/403 as the
/// credentials documentation says: one refresh and one retry of the rejected request, never a restart of the layer.
@Suite("ArcGIS credentials")
struct CredentialTests {
    /// What the sample server's authorizer saw: path and token of every request to a service.
    final class Seen: Sendable {
        let requests = Mutex<[AuthorizationRequest]>([])
        func record(_ request: AuthorizationRequest) { requests.withLock { $0.append(request) } }
        var all: [AuthorizationRequest] { requests.withLock { $0 } }
        var queries: [AuthorizationRequest] { all.filter { $0.path.hasSuffix("/query") } }
    }

    /// An authorizer that lets a service request through only with a token `accepts` takes.
    static func authorizer(_ seen: Seen, accepts: @escaping @Sendable (AuthorizationRequest) -> AuthorizationDecision) -> SampleServerAuthorizer {
        { request in
            guard request.service != nil else { return .allow }
            seen.record(request)
            return accepts(request)
        }
    }

    @Test func everyRequestOfAServiceQueryCarriesTheToken() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        let seen = Seen()
        let authenticator = TestAuthenticator()
        let authorizer = Self.authorizer(seen) { $0.token == TestAuthenticator.token(1) ? .allow : .tokenRequired }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let query = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .features)
            let outcomes = await engine.query(
                [ServiceTarget(kind: .arcgis, url: server.serviceURL(.laCountyParcels))], query, budget: .unlimited())
            let result = try #require(outcomes.first?.first?.success)
            #expect(result.selection.featureIDs == truth.map { Int64($0) })
            let requests = seen.all
            #expect(requests.count >= 4)
            #expect(requests.allSatisfy { $0.token == TestAuthenticator.token(1) })
            // The service's metadata, the layer's, and its queries (count, pages) each asked for the token.
            #expect(requests.contains { $0.path.hasSuffix("/FeatureServer") })
            #expect(requests.contains { $0.path.hasSuffix("/FeatureServer/0") })
            #expect(seen.queries.count >= 2)
            #expect(authenticator.snapshot.asked.count >= requests.count)
            #expect(authenticator.snapshot.rejectedCalls == 0)
        }
    }

    @Test func aTokenInAQueryParameterReachesTheService() async throws {
        let seen = Seen()
        let authenticator = TestAuthenticator(parameter: "token")
        let authorizer = Self.authorizer(seen) { $0.token == TestAuthenticator.token(1) ? .allow : .tokenRequired }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let result = try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            #expect(result.count > 0)
            #expect(!seen.all.isEmpty && seen.all.allSatisfy { $0.token == TestAuthenticator.token(1) })
        }
        // Every request a POST: the parameter goes in the form body.
        let posted = Seen()
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.maxGETURLLength = 10
        let postAuthorizer = Self.authorizer(posted) { $0.token == TestAuthenticator.token(1) ? .allow : .tokenRequired }
        try await ArcGISTestSupport.withEngine(
            configuration: configuration, authorizer: postAuthorizer, authenticator: authenticator
        ) { server, engine in
            let result = try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            #expect(result.count > 0)
            #expect(!posted.all.isEmpty && posted.all.allSatisfy { $0.method == "POST" && $0.token == TestAuthenticator.token(1) })
        }
    }

    @Test func fiftyConcurrentRejectionsMintOneToken() async throws {
        let seen = Seen()
        let authenticator = TestAuthenticator()
        // Metadata takes any token; queries only the second one, so every query's first request is rejected.
        let authorizer = Self.authorizer(seen) { request in
            guard request.path.hasSuffix("/query") else { return .allow }
            return request.token == TestAuthenticator.token(2) ? .allow : .invalidToken
        }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let url = server.layerURL(.cities)
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await engine.query(layer: url, ServiceQuery(result: .count)).count }
                }
                var counts: [Int] = []
                for try await count in group { counts.append(count) }
                return counts
            }
            #expect(counts.count == 50)
            #expect(Set(counts).count == 1 && counts[0] > 0)
            let state = authenticator.snapshot
            #expect(state.minted == 1)
            #expect(state.rejectedCalls >= 1 && state.rejectedCalls <= 50)
            // Each rejected request was sent with the first token, and only those.
            let stale = seen.queries.filter { $0.token == TestAuthenticator.token(1) }.count
            #expect(stale == state.rejectedCalls)
            #expect(seen.queries.filter { $0.token == TestAuthenticator.token(2) }.count == 50)
        }
    }

    /// Pages by offset (parcels) and features by `objectIds` chunks (the layer without pagination).
    @Test(arguments: [SampleLayer.parcels, .legacyParcels])
    func aRejectionMidPagingRetriesOnlyThatPage(_ layer: SampleLayer) async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(layer, envelope: SampleDataset.seedExtent)
        let query = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .features)
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.pageConcurrency = 1
        configuration.objectIdChunkSize = 25
        // The baseline: the same query, nothing rejected.
        let baseline = Seen()
        let baselineRequests = try await ArcGISTestSupport.withEngine(
            configuration: configuration, authorizer: Self.authorizer(baseline) { _ in .allow },
            authenticator: TestAuthenticator()
        ) { server, engine in
            let result = try await engine.query(layer: server.layerURL(layer), query)
            #expect(ArcGISTestSupport.ids(result) == truth)
            return baseline.queries.count
        }
        #expect(baselineRequests >= 4)
        let seen = Seen()
        let rejectedOnce = Mutex(false)
        let queries = Mutex(0)
        let authorizer = Self.authorizer(seen) { request in
            guard request.path.hasSuffix("/query") else { return .allow }
            let number = queries.withLock { $0 += 1; return $0 }
            let reject = number == 4 && rejectedOnce.withLock { done in
                defer { done = true }
                return !done
            }
            return reject ? .invalidToken : .allow
        }
        let authenticator = TestAuthenticator()
        try await ArcGISTestSupport.withEngine(
            configuration: configuration, authorizer: authorizer, authenticator: authenticator
        ) { server, engine in
            let result = try await engine.query(layer: server.layerURL(layer), query)
            #expect(ArcGISTestSupport.ids(result) == truth)
            #expect(result.isComplete)
        }
        #expect(seen.queries.count == baselineRequests + 1)
        #expect(authenticator.snapshot.rejectedCalls == 1 && authenticator.snapshot.minted == 1)
        // The retried request and those after it carried the new token.
        #expect(seen.queries.last?.token == TestAuthenticator.token(2))
    }

    @Test func forbiddenIsNeverRefreshed() async throws {
        let authenticator = TestAuthenticator()
        let authorizer = Self.authorizer(Seen()) { $0.layer == .states ? .forbidden : .allow }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let error = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.states), ServiceQuery(result: .count))
            }
            #expect(error?.code == .forbidden)
            #expect(authenticator.snapshot.rejectedCalls == 0)
        }
    }

    @Test func aTokenRequiredWithoutACredentialIsAuthenticationRequired() async throws {
        let authorizer = Self.authorizer(Seen()) { $0.token == nil ? .tokenRequired : .allow }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer) { server, engine in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .arcgis, url: server.layerURL(.cities))], ServiceQuery(result: .count), budget: .unlimited())
            let error = try #require(outcomes.first?.first?.failure)
            #expect(error.code.rawValue == "authentication_required")
            #expect(error.serviceCode == 499)
            #expect(!error.isRetryable)
        }
    }

    @Test func aRejectedAPIKeyIsExpiredAfterOneQuestion() async throws {
        let authenticator = TestAuthenticator(name: "key", refreshable: false)
        let authorizer = Self.authorizer(Seen()) { _ in .invalidToken }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let error = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            }
            #expect(error?.code == .credentialExpired)
            #expect(error?.message.contains("\"key\"") == true)
            #expect(authenticator.snapshot.rejectedCalls == 1)
        }
    }

    @Test func aSecondRejectionFailsTheLayerAsRejected() async throws {
        let authenticator = TestAuthenticator()
        let authorizer = Self.authorizer(Seen()) { _ in .invalidToken }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let error = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            }
            #expect(error?.code == .credentialRejected)
            #expect(authenticator.snapshot.rejectedCalls == 1 && authenticator.snapshot.minted == 1)
        }
    }

    /// Tokens that run out while their requests wait at the server (a service that holds requests about as long
    /// as its tokens live): a rejection of a token due for refresh gets another replacement, not the refusal a
    /// second rejection otherwise is.
    @Test func aTokenThatRanOutOnItsRetryIsReplacedAgain() async throws {
        let authenticator = TestAuthenticator(tokensRunOut: true)
        let authorizer = Self.authorizer(Seen()) { $0.token == TestAuthenticator.token(3) ? .allow : .invalidToken }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let result = try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.cities)
            #expect(result.count == truth.count, "every city")
            #expect(authenticator.snapshot.rejectedCalls == 2 && authenticator.snapshot.minted == 2)
        }
    }

    /// ... but a few times at most, then `credential_rejected` saying why.
    @Test func tokensRejectedAsTheyRunOutAreReplacedAFewTimesAtMost() async throws {
        let authenticator = TestAuthenticator(tokensRunOut: true)
        let authorizer = Self.authorizer(Seen()) { _ in .invalidToken }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: authenticator) { server, engine in
            let error = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.cities), ServiceQuery(result: .count))
            }
            #expect(error?.code == .credentialRejected)
            #expect(error?.message.contains("longer-lived tokens") == true, "\(String(describing: error?.message))")
            #expect(authenticator.snapshot.rejectedCalls == EngineTransport.maxReplacements)
        }
    }

    @Test func anAuthenticatorFailureIsTheLayersError() async throws {
        try await ArcGISTestSupport.withEngine(authenticator: FailingAuthenticator()) { server, engine in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .arcgis, url: server.layerURL(.cities))], ServiceQuery(result: .count), budget: .unlimited())
            let error = try #require(outcomes.first?.first?.failure)
            #expect(error.code.rawValue == "token_service_unavailable")
            #expect(error.isRetryable)
            #expect(error.message.contains("\"portal\""))
        }
    }

    @Test func cachedMetadataIsNotSharedAcrossCredentials() async throws {
        let seen = Seen()
        let authorizer = Self.authorizer(seen) { request in
            request.token == nil ? .tokenRequired : .allow
        }
        try await ArcGISTestSupport.withEngine(authorizer: authorizer, authenticator: PickAuthenticator()) { server, engine in
            let target = [ServiceTarget(kind: .arcgis, url: server.layerURL(.cities))]
            let picked = await engine.query(target, ServiceQuery(result: .count, credential: "alice"), budget: .unlimited())
            #expect(picked.first?.first?.success != nil)
            // A caller without a credential loads the metadata again (and is refused), not from alice's load.
            let anonymous = await engine.query(target, ServiceQuery(result: .count), budget: .unlimited())
            #expect(anonymous.first?.first?.failure?.code.rawValue == "authentication_required")
            let metadataRequests = seen.all.filter { $0.path.hasSuffix("/MapServer/0") }
            #expect(metadataRequests.map(\.token) == [TestAuthenticator.token(1), nil])
        }
    }

    /// The three shapes a 498 arrives in: an error body with HTTP 200, the real status, the admin shape.
    @Test(arguments: ["Body200", "Status498", "Admin"])
    func eachRejectionShapeIsRefreshedOnce(_ shape: String) async throws {
        let metadata = #"{"id":0,"name":"T","type":"Feature Layer","geometryType":"esriGeometryPoint","objectIdField":"OID","#
            + #""fields":[{"name":"OID","type":"esriFieldTypeOID"}],"maxRecordCount":1000,"capabilities":"Query","#
            + #""advancedQueryCapabilities":{"supportsPagination":true}}"#
        let authenticator = TestAuthenticator()
        try await TestHTTPServer.withServer(logger: ArcGISTestSupport.logger, handler: { request in
            guard request.uri.path.hasSuffix("/query") else { return .json(metadata) }
            if request.headers["X-Esri-Authorization"] == "Bearer " + TestAuthenticator.token(2) { return .json(#"{"count":3}"#) }
            switch shape {
            case "Body200": return .json(#"{"error":{"code":498,"message":"Invalid Token","details":[]}}"#)
            case "Status498": return .text("Invalid Token", status: 498)
            default: return .json(#"{"status":"error","messages":["Token Expired."],"code":498}"#)
            }
        }) { server in
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let engine = ArcGISEngine(
                httpClient: client, configuration: ArcGISEngineConfiguration(retry: .none), logger: ArcGISTestSupport.logger,
                authenticator: authenticator)
            do {
                let result = try await engine.query(layer: server.baseURL + "/arcgis/rest/services/T/FeatureServer/0", ServiceQuery(result: .count))
                #expect(result.count == 3)
            } catch {
                Issue.record(error)
            }
            await client.shutdown()
        }
        #expect(authenticator.snapshot.rejectedCalls == 1 && authenticator.snapshot.minted == 1)
    }

    /// Web-tier authentication in front of a service answers HTTP 401, which no token refresh fixes.
    @Test func an401IsAuthenticationRequiredOrRejectedNeverRefreshed() async throws {
        let authenticator = TestAuthenticator()
        try await TestHTTPServer.withServer(logger: ArcGISTestSupport.logger, handler: { _ in
            .text("<html><title>401 Unauthorized</title></html>", status: .unauthorized, contentType: "text/html")
        }) { server in
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let url = server.baseURL + "/arcgis/rest/services/T/FeatureServer/0"
            for (engineAuthenticator, expected) in [(NoAuthentication() as any RequestAuthenticator, "authentication_required"), (authenticator, "credential_rejected")] {
                let engine = ArcGISEngine(
                    httpClient: client, configuration: ArcGISEngineConfiguration(retry: .none), logger: ArcGISTestSupport.logger,
                    authenticator: engineAuthenticator)
                let outcomes = await engine.query([ServiceTarget(kind: .arcgis, url: url)], ServiceQuery(result: .count), budget: .unlimited())
                #expect(outcomes.first?.first?.failure?.code.rawValue == expected)
                #expect(outcomes.first?.first?.failure?.httpStatus == 401)
            }
            await client.shutdown()
        }
        #expect(authenticator.snapshot.rejectedCalls == 0)
    }

    @Test func secretQueryParametersAreRedacted() {
        let redactor = ParameterRedactor()
        redactor.learn([.init(name: "apikey", value: "s3cret value/1")])
        let url = "https://h/ogc/items?f=json&apikey=s3cret+value%2F1&cursor=2"
        let redacted = redactor.redact("page \(url) failed")
        #expect(redacted == "page https://h/ogc/items?f=json&apikey=<redacted>&cursor=2 failed")
        #expect(redactor.redact("the key s3cret value/1 leaked") == "the key <redacted> leaked")
        let set = URLParameters.setting([.init(name: "apikey", value: "new")], in: "https://h/items?apikey=old&cursor=2#x")
        #expect(set == "https://h/items?cursor=2&apikey=new#x")
        #expect(URLParameters.setting([.init(name: "k", value: "a b")], in: "https://h/items") == "https://h/items?k=a+b")
    }
}

/// An authenticator with one credential, `alice`, that a query must pick by name; nothing covers a URL by scope.
struct PickAuthenticator: RequestAuthenticator {
    func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        guard credential == "alice" else { return .none }
        let reference = AppliedAuthentication.TokenReference(credential: "alice", generation: 1, key: "root", isRefreshable: true)
        return AppliedAuthentication(
            headers: [.init(name: "X-Esri-Authorization", value: "Bearer " + TestAuthenticator.token(1))], token: reference)
    }

    func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? { nil }
}

extension LayerSelection {
    /// The ids of a features or ids selection.
    var featureIDs: [Int64] {
        switch self {
        case .objectIds(let ids): ids
        case .features(let list): list.objectIds
        default: []
        }
    }
}
