import Credentials
import Hummingbird

/// What the browser brought to the loopback listener.
enum RedirectCallback: Sendable {
    case code(Secret)
    case denied(String)
    case wrongState
    case malformed

    /// Reads a request to the listener; `nil` for anything but a GET of the redirect's path (a favicon).
    init?(_ request: Request, redirect: LoopbackRedirect, state: String) {
        func trimmed(_ path: String) -> Substring {
            var path = Substring(path)
            while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
            return path
        }
        guard request.method == .get, trimmed(request.uri.path) == trimmed(redirect.path) else { return nil }
        let items = request.uri.queryParameters
        func value(_ name: String) -> String? { items[Substring(name)].map(String.init) }
        guard value("state") == state else {
            self = .wrongState
            return
        }
        if let error = value("error") {
            self = .denied(String(error.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_") }.prefix(40).map(Character.init)))
        } else if let code = value("code"), !code.isEmpty {
            self = .code(Secret(code))
        } else {
            self = .malformed
        }
    }

    /// What the browser shows.
    var page: Response {
        switch self {
        case .code: Self.text("Signed in. You can close this window and return to query-worker.\n")
        case .denied: Self.text("The sign-in was declined. Return to query-worker.\n")
        case .wrongState: Self.text("This redirect belongs to another sign-in; nothing was stored.\n", status: .badRequest)
        case .malformed: Self.text("The redirect carried no authorization code.\n", status: .badRequest)
        }
    }

    /// A plain-text page, UTF-8.
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
