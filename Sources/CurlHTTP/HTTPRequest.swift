import FeatureQuerySupport

/// One HTTP request: what to send, and per-request limits that override the client's.
package struct HTTPRequest: Sendable, Hashable {
    package struct Method: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }
        package static let get = Method("GET")
        package static let post = Method("POST")
        package static let put = Method("PUT")
        package static let delete = Method("DELETE")
        package static let head = Method("HEAD")
        package static let patch = Method("PATCH")
    }

    package var method: Method {
        get { members.value.method }
        set { members.change { $0.method = newValue } }
    }
    package var url: String {
        get { members.value.url }
        set { members.change { $0.url = newValue } }
    }
    package var headers: HTTPHeaders {
        get { members.value.headers }
        set { members.change { $0.headers = newValue } }
    }
    package var body: [UInt8]? {
        get { members.value.body }
        set { members.change { $0.body = newValue } }
    }
    /// Overrides for this request only; `nil` fields fall back to the client's configuration.
    package var options: HTTPRequestOptions {
        get { members.value.options }
        set { members.change { $0.options = newValue } }
    }

    /// The members, behind one reference (``SharedValue``): a request is copied on its way from the caller
    /// through authentication and the client to its transfer, and such a copy is one retain where a copy of the
    /// members was one per string, header list and option in them.
    private var members: SharedValue<Members>

    private struct Members: Sendable, Hashable {
        var method: Method
        var url: String
        var headers: HTTPHeaders
        var body: [UInt8]?
        var options: HTTPRequestOptions
    }

    package init(
        method: Method = .get,
        url: String,
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        options: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        members = SharedValue(Members(method: method, url: url, headers: headers, body: body, options: options))
    }

    /// A form-encoded POST: how long queries travel when they would not fit in a URL.
    package static func formPost(url: String, fields: [(String, String)], headers: HTTPHeaders = [:]) -> HTTPRequest {
        var headers = headers
        headers.replace("Content-Type", "application/x-www-form-urlencoded")
        var body: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { body.append(UInt8(ascii: "&")) }
            FormEncoding.append(field.0, to: &body)
            body.append(UInt8(ascii: "="))
            FormEncoding.append(field.1, to: &body)
        }
        return HTTPRequest(method: .post, url: url, headers: headers, body: body)
    }

    /// `application/x-www-form-urlencoded` encoding of one name or value: ASCII letters, digits and `-._*`
    /// as they are, space as `+`, every other UTF-8 byte as `%XX` (upper-case hex).
    package static func formEncode(_ text: String) -> String {
        FormEncoding.encode(text)
    }

    /// Appends the form encoding of `text` (as ``formEncode(_:)`` spells it) to `bytes`, so a caller building
    /// a whole query string encodes each field once, straight into its buffer.
    package static func appendFormEncoded(_ text: String, to bytes: inout [UInt8]) {
        FormEncoding.append(text, to: &bytes)
    }
}

/// Limits for one request. Each `nil` means: use the client's configuration.
package struct HTTPRequestOptions: Sendable, Hashable {
    package var connectTimeout: Duration?
    package var timeout: Duration?
    package var maxResponseSize: Int?
    package var followRedirects: HTTPRedirectPolicy?
    /// Credentials and trust for this request instead of the client's matching rule: how a caller that picks
    /// credentials per request (the worker's credential store, reloaded while the client runs) hands them over.
    /// Applied only if its `match` covers the request's URL; otherwise the request fails with a `credential`
    /// error, so a rule can't reach a host it was not made for.
    package var credentials: HTTPCredentialRule?
    /// AWS Signature Version 4 for this request, computed by libcurl (see ``HTTPAWSSigning`` for what the
    /// request must look like). Not combined with a rule's ``HTTPAuthentication``: both write `Authorization`.
    package var awsSigning: HTTPAWSSigning?

    package init(
        connectTimeout: Duration? = nil,
        timeout: Duration? = nil,
        maxResponseSize: Int? = nil,
        followRedirects: HTTPRedirectPolicy? = nil,
        credentials: HTTPCredentialRule? = nil,
        awsSigning: HTTPAWSSigning? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
        self.followRedirects = followRedirects
        self.credentials = credentials
        self.awsSigning = awsSigning
    }
}

/// What to do with a 3xx response.
package enum HTTPRedirectPolicy: Sendable, Hashable {
    /// Return the 3xx response as it is (the default).
    case never
    /// Follow redirects within the same origin (scheme, host and port), at most `maxRedirects` times;
    /// a redirect to another origin fails with a `redirect` error, so credentials never leave their host.
    case sameOrigin(maxRedirects: Int)
}
