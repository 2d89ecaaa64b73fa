/// A complete response.
package struct HTTPResponse: Sendable, Hashable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The URL that answered, after any redirects that were followed.
    package var url: String
    /// "1.1" or "2".
    package var httpVersion: String

    package init(status: Int, headers: HTTPHeaders, body: [UInt8], url: String, httpVersion: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.httpVersion = httpVersion
    }

    package var bodyString: String { String(decoding: body, as: UTF8.self) }
}
