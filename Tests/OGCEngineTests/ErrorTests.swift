import FeatureService
import HTTPTestServer
import Hummingbird
import Synchronization
import Testing

@testable import OGCEngine

/// Each way an OGC server fails has one code, and what can succeed later is retried.
@Suite("OGC errors")
struct ErrorTests {
    static let ids = ServiceQuery(result: .ids)

    @Test func theEngineCodesAreTheSeamsCodes() {
        let codes: [FeatureServiceError.Code] = [
            .invalidQuery, .invalidURL, .unsupportedLayer, .serviceError, .authentication, .forbidden, .notFound,
            .httpStatus, .malformedResponse, .limitExceeded, .transport, .tooManyLayers, .cancelled, .pagingCycle,
            .foreignNextLink, .pagingStalled, .crsMismatch,
        ]
        for code in codes { #expect(FeatureServiceError.Code.layerCodes.contains(code), "\(code)") }
    }

    @Test func anUnknownCollectionIsNotFoundWithoutAnItemsRequest() async throws {
        let server = try await OGCTestServer.start { _ in .json(OGCTestServer.page([])) }
        let outcome = try await server.withEngine { await server.query($0, Self.ids, collection: "nope") }
        let error = try #require(outcome.failure)
        #expect(error.code == .notFound)
        #expect(error.layer == server.landing + "/collections/nope")
        #expect(server.itemRequests.isEmpty)
    }

    @Test func a404ForItemsIsNotFound() async throws {
        let server = try await OGCTestServer.start { _ in .json(#"{"code":"NotFound","description":"gone"}"#, status: 404) }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .notFound)
        #expect(outcome.failure?.message.contains("gone") == true)
    }

    @Test func a400CarriesTheServersDescription() async throws {
        let server = try await OGCTestServer.start { request in
            if request.queryItems.contains(where: { $0.name == "page" }) {
                return .json(#"{"code":"InvalidParameterValue","description":"bad cursor"}"#, status: 400)
            }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: "items?page=1"))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .invalidQuery)
        #expect(error.httpStatus == 400)
        #expect(error.message.contains("bad cursor"))
    }

    @Test func a429WithRetryAfterIsRetried() async throws {
        let calls = Mutex(0)
        let server = try await OGCTestServer.start { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 1 {
                return .bytes(Array("slow down".utf8), status: .tooManyRequests, headers: [.retryAfter: "1"])
            }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], numberMatched: 1))
        }
        let started = ContinuousClock.now
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1)])
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(server.itemRequests.count == 2)
    }

    @Test func a503ThatPersistsFailsRetryably() async throws {
        let server = try await OGCTestServer.start { _ in .text("busy", status: 503) }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .httpStatus && error.isRetryable && error.httpStatus == 503)
        #expect(server.itemRequests.count == 3)
    }

    @Test func anHTMLAnswerIsMalformed() async throws {
        let server = try await OGCTestServer.start { _ in .text("<html><title>Sign in</title></html>", contentType: "text/html") }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .malformedResponse)
        #expect(error.message.contains("Sign in"))
    }

    @Test func truncatedJSONIsMalformedAndRetried() async throws {
        let server = try await OGCTestServer.start { _ in
            .json(String(OGCTestServer.page([OGCTestServer.feature(id: "1")]).dropLast(8)))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .malformedResponse && error.isRetryable)
        #expect(server.itemRequests.count == 3)
    }

    @Test func aBodyThatIsNotJSONIsMalformed() async throws {
        let server = try await OGCTestServer.start { _ in .text("id,name\n1,a") }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .malformedResponse)
    }

    @Test func anotherContentCrsIsAMismatch() async throws {
        let server = try await OGCTestServer.start { _ in
            var response = Response.json(OGCTestServer.page([OGCTestServer.feature(id: "1")]))
            response.headers["Content-Crs"] = "<http://www.opengis.net/def/crs/EPSG/0/3857>"
            return response
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .crsMismatch)
    }

    @Test func crs84ContentCrsIsAccepted() async throws {
        let server = try await OGCTestServer.start { _ in
            var response = Response.json(OGCTestServer.page([OGCTestServer.feature(id: "1")]))
            response.headers["Content-Crs"] = "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>"
            return response
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1)])
    }

    @Test func cancellingTheCallerAbortsPagingAtTheServer() async throws {
        let server = try await OGCTestServer.start { request in
            if request.queryItems.contains(where: { $0.name == "page" }) {
                try await Task.sleep(for: .seconds(60))
            }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: "items?page=1"))
        }
        try await server.withEngine { engine in
            let task = Task { await server.query(engine, Self.ids) }
            #expect(await server.http.waitUntil(timeout: .seconds(90)) { $0.requestsReceived >= 5 })
            let cancelled = ContinuousClock.now
            task.cancel()
            let outcome = await task.value
            #expect(ContinuousClock.now - cancelled < .seconds(10))
            #expect(outcome.failure?.code == .cancelled)
            #expect(await server.http.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
        }
    }
}
