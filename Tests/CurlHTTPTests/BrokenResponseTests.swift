import CurlHTTP
import HTTPTestServer
import Testing

/// Responses that end badly: cut off mid-body, or larger than the caller allows.
@Suite("Truncated and oversized responses")
struct BrokenResponseTests {
    @Test("A connection closed mid-body fails with a retryable network error")
    func disconnectMidBody() async throws {
        let sent = TestSupport.pattern(count: 1000)
        try await TestSupport.withServer({ _ in .truncated(sent, announcedLength: 100_000) }) { server in
            try await TestSupport.withClient { client in
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/cut"))) }
                #expect(error?.code == .network)
                #expect(error?.isRetryable == true)
                #expect(error?.curlCode == 18)  // CURLE_PARTIAL_FILE
            }
        }
    }

    @Test("A body larger than allowed, announced by Content-Length, fails with tooLarge")
    func tooLargeWithContentLength() async throws {
        try await TestSupport.withServer({ _ in .bytes(TestSupport.pattern(count: 5000)) }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(maxResponseSize: 1000)) { client in
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/big"))) }
                #expect(error?.code == .tooLarge)
                #expect(error?.isRetryable == false)
                #expect(error?.message.contains("1000") == true)
                // Exactly at the limit is allowed (the request option overrides the client's limit).
                let exact = try await client.execute(HTTPRequest(url: server.url("/big"), options: HTTPRequestOptions(maxResponseSize: 5000)))
                #expect(exact.body == TestSupport.pattern(count: 5000))
            }
        }
    }

    /// A HEAD's Content-Length is the resource's size, not a body coming: an object store's HEAD of a
    /// multi-gigabyte object must not fail as too large (it did, with libcurl's MAXFILESIZE, on the first
    /// 2,400,000-parcel stored result).
    @Test("A HEAD of a resource larger than the limit answers with its length")
    func headOfALargeResource() async throws {
        try await TestSupport.withServer({ _ in .bytes(TestSupport.pattern(count: 5000)) }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(maxResponseSize: 1000)) { client in
                let head = try await client.execute(HTTPRequest(method: .head, url: server.url("/big")))
                #expect(head.status == 200)
                #expect(head.headers["Content-Length"] == "5000")
                #expect(head.body.isEmpty)
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/big"))) }
                #expect(error?.code == .tooLarge, "a GET of it still is too large")
            }
        }
    }

    @Test("A chunked body without a length fails with tooLarge once it passes the limit")
    func tooLargeChunked() async throws {
        try await TestSupport.withServer({ _ in .generated(totalBytes: 10_000_000, chunkSize: 1000) }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(maxResponseSize: 64 * 1024)) { client in
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/endless"))) }
                #expect(error?.code == .tooLarge)
                // The client aborted it: the server did not have to send ten megabytes.
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
                #expect(server.statistics.bodyBytesSent < 10_000_000)
            }
        }
    }
}
