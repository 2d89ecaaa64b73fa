import CurlHTTP
import HTTPTestServer
import Synchronization
import Testing
import HummingbirdCore

/// What the fake servers' support adds to Hummingbird, so that the other suites can rely on it: form decoding,
/// counters, cancelling a handler whose client has gone, and a stop that closes busy connections.
@Suite("Test HTTP server")
struct TestHTTPServerTests {
    @Test("Query strings and form bodies decode in order, + as a space, a bad escape kept")
    func formDecoding() {
        let query = FormField.decode("f=pjson&where=1%3D1&flag&text=a+b%20c&bad=%zz")
        #expect(query.map(\.name) == ["f", "where", "flag", "text", "bad"])
        #expect(query.value("where") == "1=1")
        #expect(query.value("flag") == "")
        #expect(query.value("text") == "a b c")
        #expect(query.value("bad") == "%zz")
        #expect(FormField.decode("outFields=*&geometry=%7B%22x%22%3A1%7D") == [
            FormField(name: "outFields", value: "*"), FormField(name: "geometry", value: #"{"x":1}"#),
        ])
        #expect(FormField.decode("").isEmpty)
    }

    @Test("A handler that throws answers 500, and the connection stays usable")
    func handlerErrorIs500() async throws {
        struct LayerMissing: Error {}
        try await TestSupport.withServer({ request in
            if request.uri.path == "/fail" { throw LayerMissing() }
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

    @Test("Stopping closes open connections and cancels running handlers")
    func stopClosesConnections() async throws {
        let cancellations = Counter()
        let server = try await TestHTTPServer.start(logger: TestSupport.logger) { _ in
            do {
                try await Task.sleep(for: .seconds(120))
            } catch {
                cancellations.increment()
                throw error
            }
            return .text("too late")
        }
        try await TestSupport.withClient { client in
            let request = Task { try await client.execute(HTTPRequest(url: server.url("/slow"))) }
            #expect(await server.waitUntil { $0.requestsReceived == 1 })
            await server.stop()
            let error = await #expect(throws: HTTPError.self) { try await request.value }
            #expect(error?.code == .network)
            #expect(cancellations.value == 1)
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
