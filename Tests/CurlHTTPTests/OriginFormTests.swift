import FeatureQuerySupport
import Foundation
import HTTPTestServer
import Testing

@testable import CurlHTTP
import HummingbirdCore

/// URLs with a query go to libcurl split (`CurlOriginForm`: `CURLOPT_URL` without the query, the path and
/// query as `CURLOPT_REQUEST_TARGET`). The server must see the same request line either way, and the
/// response the same URL; a split must not outlive its request on a pooled handle.
@Suite("Origin-form request targets")
struct OriginFormTests {
    /// The worker's kind of request: an ArcGIS count query, escapes and `+` included (~350 bytes of query).
    static let countQuery =
        "?f=json&where=STATUS%20%3D%20%27OPEN%27%20AND%20ZONE%20IN%20(%27R1%27%2C%27R2%27)&geometry=%7B%22xmin%22%3A-118.5"
        + "%2C%22ymin%22%3A33.9%2C%22xmax%22%3A-118.2%2C%22ymax%22%3A34.1%2C%22spatialReference%22%3A%7B%22wkid%22%3A4326"
        + "%7D%7D&geometryType=esriGeometryEnvelope&spatialRel=esriSpatialRelIntersects&inSR=4326&returnCountOnly=true"
        + "&outFields=*&token=abc-_.~+x&time=1700000000000%2C1800000000000"

    /// Path, query and fragment parts after the server's authority: ones the split takes and ones it must
    /// leave whole (dot segments, fragments, empty queries, no path), and odd ones from `URLTargetTests`.
    static var suffixes: [String] {
        let chosen = [
            "/arcgis/rest/services/Parcels/FeatureServer/0/query" + countQuery,
            "/q?a=1", "/q?a?b", "/q?a/b/./c/../d", "/q?", "?x=1", "/?x=1", "/q?x=1#frag", "/q?x=1#f?g", "/q#f?x=1",
            "/a/./b?x=1", "/a/../b?x=1", "/a/b/..?x=1", "/.hidden?x=1", "/%2e%2e/x?y=1", "//double?x=1",
            "/~user/!$&'()*+,;=:@?q=%7E", "/p?%41%2f+%2B&a=b+c", "/p?a|b", "/p?a%20b", "/p?é=1", "/p?a=%ZZ",
            "/p%20q?x=1", "/p?x=1;y=2&z=:@!$'()", "/P/Q?X=%7e",
        ]
        var random = SplitMix64(seed: 14)
        let generated = (0..<120).map { _ in
            func pick(_ parts: ([String], [String])) -> String {
                let list = random.below(4) == 0 ? parts.1 : parts.0
                return list[random.below(list.count)]
            }
            return pick(URLTargetTests.paths) + pick(URLTargetTests.queries) + pick(URLTargetTests.fragments)
        }
        return chosen + generated
    }

    /// What one request gave: the target the server saw and the response's URL, or the error.
    enum Outcome: Equatable {
        case answered(target: String, url: String)
        case failed(String)
    }

    static func outcomes(_ urls: [String], originForm: Bool) async throws -> [Outcome] {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: TestSupport.logger, originFormTargets: originForm)
        var outcomes: [Outcome] = []
        for url in urls {
            do {
                let response = try await client.execute(HTTPRequest(url: url))
                outcomes.append(.answered(target: response.bodyString, url: response.url))
            } catch let error as HTTPError {
                outcomes.append(.failed(error.code.rawValue))
            }
        }
        await client.shutdown()
        return outcomes
    }

    static func compare(bases: [String]) async throws -> Int {
        try await TestSupport.withServer({ .text($0.uri.description) }) { server in
            let urls = bases.flatMap { base in suffixes.map { base.replacingOccurrences(of: "PORT", with: "\(server.port)") + $0 } }
            let whole = try await outcomes(urls, originForm: false)
            let split = try await outcomes(urls, originForm: true)
            var answered = 0
            for (index, url) in urls.enumerated() {
                #expect(whole[index] == split[index], "\(url.debugDescription)")
                if case .answered = whole[index] { answered += 1 }
            }
            return answered
        }
    }

    @Test("The server sees the same request line, and the response has the same URL, with and without the split")
    func sameRequestLines() async throws {
        let answered = try await Self.compare(bases: ["http://127.0.0.1:PORT", "HTTP://127.0.0.1:PORT", "http://localhost:PORT"])
        // Most of them reach the server (the odd ones are refused before any byte is sent, the same way both times).
        #expect(answered > Self.suffixes.count * 2)
    }

    @Test("POST, HEAD and DELETE with a query carry their method, target and body")
    func otherMethods() async throws {
        try await TestSupport.withServer({ .text("\($0.method) \($0.uri) \(try await $0.bodyBytes().count)") }) { server in
            let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: TestSupport.logger, originFormTargets: true)
            let url = server.url("/m" + Self.countQuery)
            let post = try await client.execute(HTTPRequest(method: .post, url: url, body: Array("x=1".utf8)))
            let head = try await client.execute(HTTPRequest(method: .head, url: url))
            let delete = try await client.execute(HTTPRequest(method: .delete, url: url))
            let get = try await client.execute(HTTPRequest(url: url))
            await client.shutdown()
            #expect(post.bodyString == "POST /m\(Self.countQuery) 3")
            #expect(head.status == 200 && head.body.isEmpty && head.url == url)
            #expect(delete.bodyString == "DELETE /m\(Self.countQuery) 0")
            #expect(get.bodyString == "GET /m\(Self.countQuery) 0")
        }
    }

    @Test("An IPv6 host (never split) is unaffected")
    func ipv6() async throws {
        try await TestHTTPServer.withServer(host: "::1", logger: TestSupport.logger, handler: { .text($0.uri.description) }) { server in
            let urls = ["/q?a=1", "/arcgis/query" + Self.countQuery, "/q?x=1#f"].map { "http://[::1]:\(server.port)" + $0 }
            let whole = try await Self.outcomes(urls, originForm: false)
            let split = try await Self.outcomes(urls, originForm: true)
            #expect(whole == split)
            #expect(whole.first == .answered(target: "/q?a=1", url: urls[0]))
            #expect(RequestValidation.fastScan(urls[0]) == nil)
        }
    }

    @Test("The worker's kind of URL is split; URLs libcurl would change or the query-less are not")
    func whichURLsSplit() throws {
        func split(_ url: String) -> CurlOriginForm? { RequestValidation.fastScan(url).flatMap(CurlOriginForm.init) }
        let count = "http://gis.example.com:8443/arcgis/rest/services/Parcels/FeatureServer/0/query" + Self.countQuery
        let form = try #require(split(count))
        #expect(Array(count.utf8)[form.pathStart...].starts(with: "/arcgis/rest/".utf8))
        #expect(Array(count.utf8)[form.queryStart] == UInt8(ascii: "?"))
        #expect(split("https://h/p?x=1") != nil)
        #expect(split("https://h/p/.x?x=1") == nil)  // "/." may be a dot segment: left whole
        #expect(split("https://h/a/../p?x=1") == nil)
        #expect(split("https://h/p?x=1#f") == nil)  // libcurl drops fragments
        #expect(split("https://h/p?") == nil)  // nor a lone "?" in its URL
        #expect(split("https://h?x=1") == nil)  // no path: libcurl sends "/"
        #expect(split("https://h/p") == nil)  // nothing to gain without a query
        #expect(split("https://h/p?a/./b") != nil)  // dots in the query stay as they are
    }

    @Test("A proxy variable, in any spelling libcurl reads, turns the split off")
    func proxyEnvironment() {
        #expect(!CurlProxyEnvironment.mayUseProxy { _ in false })
        for name in ["http_proxy", "HTTPS_PROXY", "https_proxy", "all_proxy", "ALL_PROXY", "HTTP_PROXY"] {
            #expect(CurlProxyEnvironment.mayUseProxy { $0 == name }, "\(name)")
        }
        #expect(!CurlProxyEnvironment.mayUseProxy { $0 == "no_proxy" || $0 == "ftp_proxy" })
    }
}

/// The split over HTTP/2 (where libcurl turns the request line into `:path`) and with a TLS-only credential
/// rule, which leaves it on.
@Suite("Origin-form request targets with nginx", .enabled(if: Tools.available("nginx", "openssl"), "nginx and openssl are needed (scripts/setup-deps installs them)"))
struct OriginFormNginxTests {
    @Test("Over HTTP/2 and HTTP/1.1 with TLS, nginx logs the same request target with and without the split")
    func sameTargetOverTLS() async throws {
        try await NginxServer.with { nginx in
            let rule = HTTPCredentialRule(match: .origin(nginx.httpsURL), caBundlePath: nginx.pki.caCertificate)
            let paths = ["/split/h2" + OriginFormTests.countQuery, "/split/h2?a=1&b=%2F+c"]
            var versions: [String] = []
            for http2 in [true, false] {
                for originForm in [false, true] {
                    let configuration = HTTPClientConfiguration(enableHTTP2: http2, credentials: [rule])
                    let client = try HTTPClient(configuration: configuration, logger: TestSupport.logger, originFormTargets: originForm)
                    do {
                        for path in paths {
                            let response = try await client.execute(HTTPRequest(url: nginx.httpsURL + path))
                            #expect(response.url == nginx.httpsURL + path)
                            versions.append(response.httpVersion)
                        }
                    } catch {
                        await client.shutdown()
                        throw error
                    }
                    await client.shutdown()
                }
            }
            #expect(versions == ["2", "2", "2", "2", "1.1", "1.1", "1.1", "1.1"])
            let settled = await TestSupport.eventually { nginx.accessLog().filter { $0.uri.hasPrefix("/split/") }.count == 8 }
            #expect(settled)
            let logged = nginx.accessLog().filter { $0.uri.hasPrefix("/split/") }.map(\.uri)
            #expect(logged == paths + paths + paths + paths)
        }
    }
}
