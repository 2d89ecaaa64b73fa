import CurlHTTP
import LoopbackHTTP
import Synchronization
import Testing

/// The loopback server itself: request decoding, error responses, connection handling and shutdown, so
/// that the other suites can rely on what it reports.
@Suite("LoopbackHTTP server")
struct LoopbackServerTests {
    @Test("Requests decode path, query and form parameters")
    func requestDecoding() {
        let request = LoopbackRequest(
            method: "POST",
            uri: "/arcgis/rest/services/a%2Fb/FeatureServer/0/query?f=pjson&where=1%3D1&flag&text=a+b%20c&bad=%zz",
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: Array("outFields=*&geometry=%7B%22x%22%3A1%7D".utf8)
        )
        #expect(request.path == "/arcgis/rest/services/a%2Fb/FeatureServer/0/query")
        #expect(request.query == "f=pjson&where=1%3D1&flag&text=a+b%20c&bad=%zz")
        #expect(request.queryItems.map(\.name) == ["f", "where", "flag", "text", "bad"])
        #expect(request.parameter("where") == "1=1")
        #expect(request.parameter("flag") == "")
        #expect(request.parameter("text") == "a b c")
        #expect(request.parameter("bad") == "%zz")
        #expect(request.formFields == [.init(name: "outFields", value: "*"), .init(name: "geometry", value: #"{"x":1}"#)])
        #expect(request.parameter("geometry") == #"{"x":1}"#)
        let plain = LoopbackRequest(method: "POST", uri: "/", body: Array("a=b".utf8))
        #expect(plain.formFields.isEmpty)
        #expect(plain.query == nil)
    }

    @Test("Headers keep order and repeated names, and look names up case-insensitively")
    func headers() {
        var headers: LoopbackHeaders = ["Content-Type": "text/plain"]
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values("SET-COOKIE") == ["a=1", "b=2"])
        headers.replace("Set-Cookie", "c=3")
        #expect(headers.values("Set-Cookie") == ["c=3"])
        headers.remove("CONTENT-TYPE")
        #expect(!headers.contains("Content-Type"))
        #expect(headers.count == 1)
    }

    @Test("A handler that throws answers 500, and the connection stays usable")
    func handlerErrorIs500() async throws {
        struct LayerMissing: Error {}
        try await TestSupport.withServer({ request in
            if request.path == "/fail" { throw LayerMissing() }
            return .text("fine")
        }) { server in
            try await TestSupport.withClient { client in
                let failed = try await client.execute(HTTPRequest(url: server.url("/fail")))
                #expect(failed.status == 500)
                #expect(failed.bodyString.contains("LayerMissing"))
                let fine = try await client.execute(HTTPRequest(url: server.url("/ok")))
                #expect(fine.bodyString == "fine")
            }
            #expect(server.statistics.connectionsAccepted == 1)
        }
    }

    @Test("A response with Connection: close ends its connection; the next request opens a new one")
    func connectionClose() async throws {
        try await TestSupport.withServer({ _ in LoopbackResponse(headers: ["Connection": "close"], body: .bytes(Array("bye".utf8))) }) { server in
            try await TestSupport.withClient { client in
                for _ in 0..<3 {
                    let response = try await client.execute(HTTPRequest(url: server.url("/")))
                    #expect(response.bodyString == "bye")
                }
            }
            #expect(await server.waitUntil { $0.requestsServed == 3 && $0.openConnections == 0 }, "\(server.statistics)")
            #expect(server.statistics.connectionsAccepted == 3)
        }
    }

    @Test("Shutdown closes open connections and cancels running handlers")
    func shutdownClosesConnections() async throws {
        let server = try await LoopbackHTTPServer.start(logger: TestSupport.logger) { _ in
            try await Task.sleep(for: .seconds(120))
            return .text("too late")
        }
        try await TestSupport.withClient { client in
            let request = Task { try await client.execute(HTTPRequest(url: server.url("/slow"))) }
            #expect(await server.waitUntil { $0.requestsReceived == 1 })
            await server.shutdown()
            let error = await #expect(throws: HTTPError.self) { try await request.value }
            #expect(error?.code == .network)
            #expect(server.statistics.openConnections == 0)
            #expect(server.statistics.responsesAbandoned == 0)  // the server closed it, not the client
            let refused = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/again"))) }
            #expect(refused?.code == .connect)
        }
    }

    @Test("A client that gives up cancels the handler still working for it, at once")
    func clientGoneCancelsHandler() async throws {
        let started = Counter()
        let cancellations = Counter()
        try await TestSupport.withServer({ _ in
            started.increment()
            do {
                try await Task.sleep(for: .seconds(120))
            } catch {
                cancellations.increment()
                throw error
            }
            return .text("too late")
        }) { server in
            try await TestSupport.withClient { client in
                let request = Task { try await client.execute(HTTPRequest(url: server.url("/slow"))) }
                #expect(await server.waitUntil { _ in started.value == 1 })
                request.cancel()  // the client closes its connection
                await #expect(throws: CancellationError.self) { try await request.value }
                // Well before the handler's two minutes: the closed connection cancelled its task.
                #expect(await server.waitUntil(timeout: .seconds(20)) { _ in cancellations.value == 1 })
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 }, "\(server.statistics)")
            }
        }
    }

    /// A count shared with a handler.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test("Servers on ephemeral ports are independent")
    func independentServers() async throws {
        try await TestSupport.withServer({ _ in .text("one") }) { one in
            try await TestSupport.withServer({ _ in .text("two") }) { two in
                #expect(one.port != two.port)
                #expect(one.baseURL == "http://127.0.0.1:\(one.port)")
                try await TestSupport.withClient { client in
                    let first = try await client.execute(HTTPRequest(url: one.url("/")))
                    let second = try await client.execute(HTTPRequest(url: two.url("/")))
                    #expect(first.bodyString == "one")
                    #expect(second.bodyString == "two")
                }
            }
        }
    }
}
