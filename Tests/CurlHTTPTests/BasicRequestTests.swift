import CurlHTTP
import HTTPTestServer
import Hummingbird
import Testing

/// Requests and responses as they travel: what the client sends is what a real server receives, and
/// what the server answers is what the caller gets.
@Suite("Requests and responses over loopback")
struct BasicRequestTests {
    @Test("GET returns status, headers and body as sent")
    func getReturnsStatusHeadersAndBody() async throws {
        let log = RequestLog()
        let body = #"{"currentVersion":11.1,"services":[]}"#
        try await TestSupport.withServer({ request in
            try await log.record(request)
            var headers: HTTPFields = [.contentType: "application/json"]
            headers["X-Served-By"] = "loopback"
            return .bytes(Array(body.utf8), status: .created, headers: headers)
        }) { server in
            try await TestSupport.withClient { client in
                let url = server.url("/arcgis/rest/services?f=json&token=a%20b")
                let response = try await client.execute(HTTPRequest(url: url))
                #expect(response.status == 201)
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.headers["X-SERVED-BY"] == "loopback")
                #expect(response.headers["Content-Length"] == String(body.utf8.count))
                #expect(response.bodyString == body)
                #expect(response.httpVersion == "1.1")
                #expect(response.url == url)
            }
        }
        let request = try #require(log.all.first)
        #expect(log.all.count == 1)
        #expect(request.method == "GET")
        #expect(request.path == "/arcgis/rest/services")
        #expect(request.queryItems == [.init(name: "f", value: "json"), .init(name: "token", value: "a b")])
        #expect(request.headers["User-Agent"] == "query-worker")
        #expect(request.body.isEmpty)
    }

    @Test("A 4xx or 5xx status is a response, not an error")
    func errorStatusIsAResponse() async throws {
        try await TestSupport.withServer({ request in
            request.uri.path == "/missing" ? .text("no such layer", status: .notFound) : .text("boom", status: .serviceUnavailable)
        }) { server in
            try await TestSupport.withClient { client in
                let missing = try await client.execute(HTTPRequest(url: server.url("/missing")))
                #expect(missing.status == 404)
                #expect(missing.bodyString == "no such layer")
                let unavailable = try await client.execute(HTTPRequest(url: server.url("/busy")))
                #expect(unavailable.status == 503)
                #expect(unavailable.bodyString == "boom")
            }
        }
    }

    @Test("POST, PUT and DELETE send their method and body bytes unchanged")
    func methodsAndBinaryBodies() async throws {
        let log = RequestLog()
        let binary: [UInt8] = [0, 1, 2, 255, 13, 10, 0] + TestSupport.pattern(count: 100_000)
        try await TestSupport.withServer({ request in
            try await log.record(request)
            return .bytes(try await request.bodyBytes().reversed())
        }) { server in
            try await TestSupport.withClient { client in
                let headers: CurlHTTP.HTTPHeaders = ["Content-Type": "application/octet-stream"]
                let post = try await client.execute(HTTPRequest(method: .post, url: server.url("/post"), headers: headers, body: binary))
                #expect(post.body == binary.reversed())
                let put = try await client.execute(HTTPRequest(method: .put, url: server.url("/put"), body: Array("replace".utf8)))
                #expect(put.bodyString == "ecalper")
                let delete = try await client.execute(HTTPRequest(method: .delete, url: server.url("/delete")))
                #expect(delete.status == 200)
            }
        }
        let requests = log.all
        #expect(requests.map(\.method) == ["POST", "PUT", "DELETE"])
        #expect(requests.first?.body == binary)
        #expect(requests.first?.headers["Content-Length"] == String(binary.count))
        #expect(requests.first?.headers["Expect"] == nil)  // no 100-continue round trip
        #expect(requests.last?.body.isEmpty == true)
    }

    @Test("A form POST arrives decoded exactly as the fields were given")
    func formPostArrivesDecoded() async throws {
        let log = RequestLog()
        let fields = [
            ("where", "NAME LIKE 'A%' AND POP > 1000"),
            ("outFields", "*"),
            ("geometry", #"{"x":-122.5,"y":37.75,"spatialReference":{"wkid":4326}}"#),
            ("text", "Zürich & Genève = 1+1 ~ 100%"),
            ("empty", ""),
        ]
        try await TestSupport.withServer({ request in
            try await log.record(request)
            return .json(#"{"features":[]}"#)
        }) { server in
            try await TestSupport.withClient { client in
                let request = HTTPRequest.formPost(url: server.url("/0/query"), fields: fields, headers: ["X-Request-Id": "form-1"])
                let response = try await client.execute(request)
                #expect(response.status == 200)
                #expect(response.bodyString == #"{"features":[]}"#)
            }
        }
        let received = try #require(log.all.first)
        #expect(received.method == "POST")
        #expect(received.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(received.headers["X-Request-Id"] == "form-1")
        #expect(received.formFields == fields.map { FormField(name: $0.0, value: $0.1) })
        #expect(received.parameter("where") == "NAME LIKE 'A%' AND POP > 1000")
        #expect(!received.bodyText.contains(" "))  // encoded on the wire
    }

    @Test("Custom headers arrive, repeated names included")
    func customHeadersArrive() async throws {
        let log = RequestLog()
        try await TestSupport.withServer({ request in
            try await log.record(request)
            return .text("ok")
        }) { server in
            try await TestSupport.withClient { client in
                var headers: CurlHTTP.HTTPHeaders = ["Accept": "application/geo+json", "X-Trace": "abc-123"]
                headers.add("X-Layer", "0")
                headers.add("X-Layer", "3")
                headers.add("X-Empty-Ish", "  spaced value  ")
                _ = try await client.execute(HTTPRequest(url: server.url("/headers"), headers: headers))
            }
        }
        let received = try #require(log.all.first)
        #expect(received.headers["Accept"] == "application/geo+json")
        #expect(received.headers["x-trace"] == "abc-123")
        #expect(received.headers.values("X-Layer") == ["0", "3"])
        #expect(received.headers["X-Empty-Ish"] == "spaced value")
    }

    @Test("HEAD returns the headers a GET would, without a body, and the connection stays usable")
    func headHasNoBody() async throws {
        try await TestSupport.withServer({ _ in .text("eleven byte") }) { server in
            try await TestSupport.withClient { client in
                let head = try await client.execute(HTTPRequest(method: .head, url: server.url("/layer")))
                #expect(head.status == 200)
                #expect(head.headers["Content-Length"] == "11")
                #expect(head.body.isEmpty)
                let get = try await client.execute(HTTPRequest(url: server.url("/layer")))
                #expect(get.bodyString == "eleven byte")
                #expect(server.statistics.connectionsAccepted == 1)
            }
        }
    }
}
