import FeatureQuerySupport
import Hummingbird

/// A request read whole, as the sample server's handlers see it: Hummingbird's method and fields, the path,
/// and the parameters an ArcGIS service reads from the query string and a form body alike.
struct SampleRequest: Sendable {
    /// One `name=value` pair of a query string or a form-encoded body, percent-decoded.
    struct Parameter: Sendable, Hashable {
        /// The decoded name.
        var name: String
        /// The decoded value; empty for a bare `name` without `=`.
        var value: String
    }

    var method: HTTPRequest.Method
    /// The path of the request target, still percent-encoded (so `%2F` stays distinguishable from `/`).
    var path: String
    /// The `Host` field (Hummingbird keeps it apart from the others, as the authority).
    var host: String?
    var headers: HTTPFields
    /// Query parameters followed by form fields: clients send them either way (GET for short queries, a
    /// form POST for long ones).
    var parameters: [Parameter]

    /// A request from its parts; the body counts when it is `application/x-www-form-urlencoded`.
    init(method: HTTPRequest.Method, target: String, host: String? = nil, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.method = method
        self.host = host
        self.headers = headers
        let query: Substring
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = target[target.index(after: mark)...]
        } else {
            path = target
            query = ""
        }
        parameters = PercentDecoding.formPairs(query).map { Parameter(name: $0.name, value: $0.value) }
        if let type = headers[.contentType]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded") {
            parameters += PercentDecoding.formPairs(String(decoding: body, as: UTF8.self)).map { Parameter(name: $0.name, value: $0.value) }
        }
    }

    /// Hummingbird's request with its body read.
    init(_ request: Request) async throws {
        var request = request
        let body = try await request.collectBody(upTo: .max)
        self.init(
            method: request.method, target: request.head.path ?? "/", host: request.head.authority, headers: request.headers,
            body: Array(body.readableBytesView))
    }

    /// The first value of a parameter from the query or the form body.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// A field by name (any letter case); nil when absent or when `name` is not a valid field name.
    func header(_ name: String) -> String? {
        HTTPFields.Element.Name(name).flatMap { headers[$0] }
    }
}
