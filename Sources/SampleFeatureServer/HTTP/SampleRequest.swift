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
        parameters = FormDecoding.parameters(query)
        if let type = headers[.contentType]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded") {
            parameters += FormDecoding.parameters(Substring(decoding: body, as: UTF8.self))
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

/// `application/x-www-form-urlencoded` decoding (`+` is a space), without Foundation.
enum FormDecoding {
    static func parameters(_ text: Substring) -> [SampleRequest.Parameter] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? decode(parts[1]) : ""
            return SampleRequest.Parameter(name: decode(parts[0]), value: value)
        }
    }

    /// Percent-decodes and turns `+` into a space; a malformed escape is kept as it is.
    static func decode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
