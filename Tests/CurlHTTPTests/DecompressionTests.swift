import CurlHTTP
import HTTPTestServer
import Hummingbird
import Testing

/// Compressed bodies are decoded by libcurl; fixtures come from the real command-line compressors.
@Suite("Content-Encoding: gzip, br and zstd")
struct DecompressionTests {
    /// The encoding's name in `Content-Encoding` and the command that makes it.
    static let encoders: [String: (tool: String, arguments: [String])] = [
        "gzip": ("gzip", ["-c", "-n"]),
        "br": ("brotli", ["-c"]),
        "zstd": ("zstd", ["-q", "-c"]),
    ]

    static var toolsAvailable: Bool { Tools.available("gzip", "brotli", "zstd") }

    @Test("Compressed bodies arrive decoded", .enabled(if: toolsAvailable, "gzip, brotli and zstd are needed (scripts/setup-deps installs them)"), arguments: ["gzip", "br", "zstd"])
    func decodes(_ encoding: String) async throws {
        let original = Array(String(repeating: #"{"attributes":{"OBJECTID":1,"NAME":"Zürich"}},"#, count: 2000).utf8)
        let encoder = try #require(Self.encoders[encoding])
        let compressed = try await ChildProcess.check(try Tools.require(encoder.tool), encoder.arguments, input: original)
        #expect(compressed.count < original.count / 4)
        let log = RequestLog()
        try await TestSupport.withServer({ request in
            try await log.record(request)
            var headers: HTTPFields = [.contentType: "application/json"]
            headers["Content-Encoding"] = encoding
            return .bytes(compressed, headers: headers)
        }) { server in
            try await TestSupport.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.url("/query")))
                #expect(response.body == original)
            }
        }
        let offered = log.all.first?.headers["Accept-Encoding"] ?? ""
        #expect(offered.contains(encoding))
    }

    @Test("A body that does not match its Content-Encoding fails with a protocol error")
    func badEncoding() async throws {
        try await TestSupport.withServer({ _ in
            .bytes(Array("this is not gzip at all".utf8), headers: [.contentEncoding: "gzip"])
        }) { server in
            try await TestSupport.withClient { client in
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/bad"))) }
                #expect(error?.code == .protocol)
                #expect(error?.isRetryable == false)
            }
        }
    }
}
