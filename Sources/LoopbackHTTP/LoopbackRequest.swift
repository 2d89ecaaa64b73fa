import FeatureQuerySupport

/// A complete request as the server received it, body included, handed to the server's handler.
package struct LoopbackRequest: Sendable, Hashable {
    /// One `name=value` pair of a query string or a form-encoded body, percent-decoded.
    package struct Parameter: Sendable, Hashable {
        /// The decoded name.
        package var name: String
        /// The decoded value; empty for a bare `name` without `=`.
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The method as sent, like `GET` or `POST`.
    package var method: String
    /// The request target as sent: path and query, still percent-encoded.
    package var uri: String
    /// The path part of ``uri``, still percent-encoded (so `%2F` stays distinguishable from `/`).
    package var path: String
    /// The query part of ``uri`` after `?`, still encoded; `nil` when there is none.
    package var query: String?
    /// The request's header fields in the order sent.
    package var headers: LoopbackHeaders
    /// The whole body (the server reads it completely before calling the handler).
    package var body: [UInt8]

    /// A request as the server builds it; visible to the package so that handlers can be unit-tested without a socket.
    package init(method: String, uri: String, headers: LoopbackHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        if let mark = uri.firstIndex(of: "?") {
            path = String(uri[..<mark])
            query = String(uri[uri.index(after: mark)...])
        } else {
            path = uri
            query = nil
        }
    }

    /// The query string's parameters, decoded as a form (`+` is a space), in order.
    package var queryItems: [Parameter] { FormDecoding.parameters(query ?? "") }

    /// The body's parameters when it is `application/x-www-form-urlencoded`; empty otherwise.
    package var formFields: [Parameter] {
        guard let type = headers["Content-Type"]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded") else {
            return []
        }
        return FormDecoding.parameters(bodyText)
    }

    /// Query parameters followed by form fields: where an ArcGIS-style service reads its arguments, since
    /// clients send them either way (GET for short queries, a form POST for long ones).
    package var parameters: [Parameter] { queryItems + formFields }

    /// The first value of a parameter from the query or the form body.
    package func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// `application/x-www-form-urlencoded` decoding, kept here so the module needs no Foundation.
enum FormDecoding {
    static func parameters(_ text: String) -> [LoopbackRequest.Parameter] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? decode(parts[1]) : ""
            return LoopbackRequest.Parameter(name: decode(parts[0]), value: value)
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
