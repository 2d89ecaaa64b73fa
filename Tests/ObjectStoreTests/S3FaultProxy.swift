import CurlHTTP
import HTTPTestServer
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// A small HTTP proxy in front of moto that forwards every request and injects the faults a rule names: S3's
/// 503 SlowDown with `Retry-After`, a 500 for a part, a `HEAD` that reports another size. It logs what it saw
/// (`METHOD path?query → status`), so a test can say how often a part was sent.
///
/// Forwarding changes the `Host` a signature covers, so the proxy fronts a moto without signature checking.
final class S3FaultProxy: Sendable {
    /// What a matching request gets instead of moto's answer.
    enum Fault: Sendable {
        /// 503 with S3's `SlowDown` XML and `Retry-After: seconds`.
        case slowDown(retryAfter: Int)
        /// 500 with S3's `InternalError` XML.
        case internalError
        /// moto's answer with `Content-Length` changed by `delta` (a `HEAD`: the stored size looks different).
        case sizeOff(delta: Int)
        /// moto's answer with another `ETag` (a part's receipt that does not match what the store holds).
        case wrongETag
    }

    struct Rule: Sendable {
        var method: String
        /// A text the request's query (or path, for `HEAD`) must contain (`partNumber=2`, `uploads=`).
        var contains: String
        var fault: Fault
        /// How many matching requests get the fault; `nil`: all.
        var times: Int?
    }

    private let rules: Mutex<[Rule]>
    private let seen = Mutex<[String]>([])
    private let upstream: String
    private let client: HTTPClient

    private init(upstream: String, rules: [Rule], client: HTTPClient) {
        self.upstream = upstream
        self.rules = Mutex(rules)
        self.client = client
    }

    /// What the proxy saw, in order.
    var log: [String] { seen.withLock { $0 } }

    /// Runs `body` with a proxy to `upstream` (moto's endpoint) applying `rules`; its base URL is the endpoint
    /// to give the S3 client.
    static func withProxy<T>(
        to upstream: String, rules: [Rule], logger: Logger, _ body: (S3FaultProxy, String) async throws -> T
    ) async throws -> T {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(2), timeout: .seconds(60)), logger: logger)
        let proxy = S3FaultProxy(upstream: upstream, rules: rules, client: client)
        let result: Result<T, any Error>
        do {
            result = .success(
                try await TestHTTPServer.withServer(logger: logger, handler: { request in try await proxy.handle(request) }) { server in
                    try await body(proxy, server.baseURL)
                })
        } catch {
            result = .failure(error)
        }
        await client.shutdown()
        return try result.get()
    }

    private func fault(for method: String, target: String) -> Fault? {
        rules.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.method == method && target.contains($0.contains) && $0.times != 0 }) else {
                return nil
            }
            if let times = rules[index].times { rules[index].times = times - 1 }
            return rules[index].fault
        }
    }

    private func handle(_ request: Request) async throws -> Response {
        let method = request.method.rawValue
        let target = request.uri.description
        let body = try await request.bodyBytes()
        let fault = fault(for: method, target: target)
        switch fault {
        case .slowDown(let seconds):
            record(method, target, 503)
            return .bytes(
                Array(Self.errorXML(code: "SlowDown", message: "Please reduce your request rate.").utf8), status: .serviceUnavailable,
                headers: [.retryAfter: String(seconds), .contentType: "application/xml"])
        case .internalError:
            record(method, target, 500)
            return .bytes(
                Array(Self.errorXML(code: "InternalError", message: "We encountered an internal error. Please try again.").utf8),
                status: .internalServerError, headers: [.contentType: "application/xml"])
        case .sizeOff, .wrongETag, nil:
            break
        }
        var headers = HTTPHeaders()
        for field in request.headers where !Self.hopByHop.contains(field.name.canonicalName) {
            headers.add(field.name.rawName, field.value)
        }
        let answer = try await client.execute(
            CurlHTTP.HTTPRequest(method: CurlHTTP.HTTPRequest.Method(method), url: upstream + target, headers: headers, body: body.isEmpty ? nil : body))
        record(method, target, answer.status)
        var fields = HTTPFields()
        for (name, value) in answer.headers.fields {
            // Content-Length is kept for a HEAD only (it is the stored size); Hummingbird frames other bodies.
            guard let field = HTTPField.Name(name), field == .contentLength || !Self.hopByHop.contains(field.canonicalName) else { continue }
            if field == .contentLength, method != "HEAD" { continue }
            if field == .contentLength, case .sizeOff(let delta) = fault, let size = Int(value) {
                fields[field] = String(size + delta)
            } else if field == .eTag, case .wrongETag = fault {
                fields[field] = "\"0123456789abcdef0123456789abcdef\""
            } else {
                fields.append(HTTPField(name: field, value: value))
            }
        }
        return .bytes(answer.body, status: HTTPResponse.Status(code: answer.status), headers: fields)
    }

    private func record(_ method: String, _ target: String, _ status: Int) {
        seen.withLock { $0.append("\(method) \(target) → \(status)") }
    }

    private static let hopByHop: Set<String> = ["host", "content-length", "connection", "transfer-encoding", "expect", "keep-alive"]

    private static func errorXML(code: String, message: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(code)</Code><Message>\(message)</Message></Error>"
    }
}
