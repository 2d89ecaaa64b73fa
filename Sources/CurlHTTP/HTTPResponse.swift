/// A complete response.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The URL that answered, after any redirects that were followed.
    public var url: String
    /// "1.1" or "2".
    public var httpVersion: String

    package init(status: Int, headers: HTTPHeaders, body: [UInt8], url: String, httpVersion: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.httpVersion = httpVersion
    }

    public var bodyString: String { String(decoding: body, as: UTF8.self) }
}
